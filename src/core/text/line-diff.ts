// What an edit changed, as the operator reads it: `-`/`+` lines of the file with their line
// numbers. Config edits touch a few lines, so the common head and tail are cut first and only
// the middle is compared line by line.

export type DiffHunk = {
	/** 1-based line of the first removed (or, for a pure insertion, the first added) line. */
	line: number;
	removed: string[];
	added: string[];
};

export function lineDiff(before: string, after: string): DiffHunk[] {
	const a = before.split('\n');
	const b = after.split('\n');
	let head = 0;
	while (head < a.length && head < b.length && a[head] === b[head]) {
		head++;
	}

	let tail = 0;
	while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) {
		tail++;
	}

	const middleA = a.slice(head, a.length - tail);
	const middleB = b.slice(head, b.length - tail);
	// Longest common subsequence of the middle, so two edits far apart are two small hunks.
	const lengths = middleA.map(() => Array.from<number>({length: middleB.length + 1}).fill(0));
	lengths.push(Array.from<number>({length: middleB.length + 1}).fill(0));
	for (let i = middleA.length - 1; i >= 0; i--) {
		for (let j = middleB.length - 1; j >= 0; j--) {
			lengths[i]![j] = middleA[i] === middleB[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
		}
	}

	const hunks: DiffHunk[] = [];
	let current: DiffHunk | undefined;
	let i = 0;
	let j = 0;
	const flush = () => {
		if (current) {
			hunks.push(current);
			current = undefined;
		}
	};

	while (i < middleA.length || j < middleB.length) {
		if (i < middleA.length && j < middleB.length && middleA[i] === middleB[j]) {
			flush();
			i++;
			j++;
		} else if (j < middleB.length && (i === middleA.length || lengths[i]![j + 1]! >= lengths[i + 1]![j]!)) {
			current ??= {line: head + i + 1, removed: [], added: []};
			current.added.push(middleB[j]!);
			j++;
		} else {
			current ??= {line: head + i + 1, removed: [], added: []};
			current.removed.push(middleA[i]!);
			i++;
		}
	}

	flush();
	return hunks;
}

/** `@@ line N` then the `-` and `+` lines; `format` makes each line safe to print. */
export function formatDiff(hunks: readonly DiffHunk[], format: (line: string) => string = line => line): string[] {
	return hunks.flatMap(hunk => [`@@ line ${hunk.line}`, ...hunk.removed.map(line => `-${format(line)}`), ...hunk.added.map(line => `+${format(line)}`)]);
}
