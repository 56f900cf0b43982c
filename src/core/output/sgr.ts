// SGR (colour and style) parameters as the dashboard can keep them. Ink cuts, wraps and closes
// styles it knows; a form it does not know (`38:5:n`, `48:2::r:g:b`, undercurl `4:3`, underline
// colour `58`) passes through unclosed and colours the header and the rows below. So every SGR is
// rewritten into the plain semicolon forms, and whatever is not understood is dropped.

const simpleCodes = new Set([
	0, 1, 2, 3, 4, 5, 7, 8, 9, 21, 22, 23, 24, 25, 27, 28, 29, 39, 49, 53, 55,
	30, 31, 32, 33, 34, 35, 36, 37, 40, 41, 42, 43, 44, 45, 46, 47,
	90, 91, 92, 93, 94, 95, 96, 97, 100, 101, 102, 103, 104, 105, 106, 107,
]);

const byte = (value: number | undefined): value is number => value !== undefined && Number.isInteger(value) && value >= 0 && value <= 255;

/**
 * An extended colour (after 38, 48 or 58) from its arguments: `5;n` or `2;r;g;b`, in semicolon
 * or colon form (the colon form may carry a colour-space id: `2::r:g:b`). Undefined when malformed.
 */
function extendedColour(args: Array<number | undefined>, colonForm: boolean): {codes: number[]; used: number} | undefined {
	const kind = args[0];
	if (kind === 5) {
		return byte(args[1]) ? {codes: [5, args[1]], used: 2} : undefined;
	}

	if (kind === 2) {
		// Colon form: 2:r:g:b or 2:space:r:g:b.
		const rgb = colonForm && args.length >= 5 ? args.slice(2, 5) : args.slice(1, 4);
		return rgb.every(byte) ? {codes: [2, ...rgb], used: colonForm ? args.length : 4} : undefined;
	}

	return undefined;
}

function toNumber(text: string): number | undefined {
	return text === '' ? undefined : Number(text);
}

/**
 * The SGR sequence for `params` (what stands between `ESC [` and `m`) with only understood
 * attributes, or '' when none is left. An empty list or `0` is a reset.
 */
export function normaliseSgr(params: string): string {
	// Agents repeat the same few sequences thousands of times: a flood costs a lookup each.
	let sequence = seen.get(params);
	if (sequence === undefined) {
		sequence = normalise(params);
		if (seen.size >= maxSeen) seen.clear();
		seen.set(params, sequence);
	}

	return sequence;
}

const seen = new Map<string, string>();
const maxSeen = 1024;

function normalise(params: string): string {
	if (params === '') return '\u001B[m';
	const groups = params.split(';');
	const codes: number[] = [];
	for (let index = 0; index < groups.length; index++) {
		const group = groups[index]!;
		if (group.includes(':')) {
			const parts = group.split(':').map(toNumber);
			const head = parts[0];
			if (head === 38 || head === 48) {
				const colour = extendedColour(parts.slice(1), true);
				if (colour) codes.push(head, ...colour.codes);
			} else if (head === 4) {
				// Underline styles (curly, dotted, ...) become a plain underline; 4:0 ends it.
				codes.push(parts[1] === 0 ? 24 : 4);
			}

			continue;
		}

		const code = toNumber(group) ?? 0;
		if (code === 38 || code === 48 || code === 58) {
			const colour = extendedColour(groups.slice(index + 1).map(toNumber), false);
			if (!colour) break; // The rest cannot be told apart from its arguments.
			if (code !== 58) codes.push(code, ...colour.codes);
			index += colour.used;
		} else if (simpleCodes.has(code)) {
			codes.push(code);
		}
	}

	if (codes.length === 0) return '';
	const normal = codes.join(';');
	return `\u001B[${normal === params ? params : normal}m`;
}

/** What stays open after `sequence` (a normalised SGR) on top of `open`: a 0 code resets it all. */
export function openAfter(open: string, sequence: string): string {
	let kept = afterReset.get(sequence);
	if (kept === undefined) {
		kept = keptAfterReset(sequence);
		if (afterReset.size >= maxSeen) afterReset.clear();
		afterReset.set(sequence, kept);
	}

	if (kept === '') return '';
	// Bounded: a long run of SGR without a reset keeps only its newest sequences.
	const next = kept === sequence ? open + sequence : kept;
	return next.length > 128 ? sequence : next;
}

const afterReset = new Map<string, string>();

/** The part of `sequence` after its last reset, as a sequence: itself without a reset, '' when it ends in one. */
function keptAfterReset(sequence: string): string {
	const codes = sequence.slice(2, -1).split(';');
	let lastReset = -1;
	for (let index = 0; index < codes.length; index++) {
		const code = codes[index];
		if (code === '' || code === '0') {
			lastReset = index;
		} else if (code === '38' || code === '48') {
			// Skip the colour's own arguments, which may be 0 without meaning a reset.
			index += codes[index + 1] === '5' ? 2 : 4;
		}
	}

	if (lastReset === -1) return sequence;
	return lastReset === codes.length - 1 ? '' : `\u001B[${codes.slice(lastReset + 1).join(';')}m`;
}
