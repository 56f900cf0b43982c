// Byte sizes as people write them in settings and flags (`512MB`, `1.5 GiB`, `65536`) and as we
// print them back. Units are binary whichever way they are spelled: 1MB = 1 MiB = 1,048,576 bytes,
// as `du -h` and most log tools count; a limit needs to be generous, not exact to the byte.

const unitBytes: Record<string, number> = {
	'': 1,
	b: 1,
	k: 1024,
	kb: 1024,
	kib: 1024,
	m: 1024 ** 2,
	mb: 1024 ** 2,
	mib: 1024 ** 2,
	g: 1024 ** 3,
	gb: 1024 ** 3,
	gib: 1024 ** 3,
	t: 1024 ** 4,
	tb: 1024 ** 4,
	tib: 1024 ** 4,
};

/** Whole bytes, or undefined when `text` is not a size (a number with an optional unit). */
export function parseSize(text: string | number): number | undefined {
	if (typeof text === 'number') {
		return Number.isSafeInteger(text) && text >= 0 ? text : undefined;
	}

	const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
	const factor = match ? unitBytes[match[2]!.toLowerCase()] : undefined;
	if (!match || factor === undefined) {
		return undefined;
	}

	const bytes = Math.round(Number(match[1]) * factor);
	return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** Whether a size names its unit (`1KB`, `2 GiB`); a bare number counts bytes. */
export function hasUnit(text: string | number): boolean {
	return typeof text === 'string' && /[a-z]\s*$/i.test(text);
}

/** `512 bytes`, `64 KiB`, `1.5 GiB`: at most one decimal, trailing `.0` dropped. */
export function formatBytes(bytes: number): string {
	const units = ['KiB', 'MiB', 'GiB', 'TiB'];
	if (bytes < 1024) {
		return `${bytes} bytes`;
	}

	let value = bytes;
	let unit = 'bytes';
	for (const next of units) {
		if (value < 1024) {
			break;
		}

		value /= 1024;
		unit = next;
	}

	return `${Number(value.toFixed(1))} ${unit}`;
}
