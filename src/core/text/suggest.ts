// "Did you mean": the known word closest to a mistyped one, for a command (`config shwo`) or a
// field of a task file or delegate.yaml (`optoin`). Only a near miss is offered — a letter wrong,
// missing, extra, or two swapped, and two such for a longer word — so that an unrelated word gets
// the list of known ones alone, never a guess.

/** The edit distance with adjacent swaps counting one (optimal string alignment). */
export function editDistance(a: string, b: string): number {
	const rows = Array.from({length: a.length + 1}, (_, i) => Array.from({length: b.length + 1}, (_, j) => (i === 0 ? j : (j === 0 ? i : 0))));
	for (let i = 1; i <= a.length; i++) {
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
			rows[i]![j] = best;
		}
	}

	return rows[a.length]![b.length]!;
}

/** The candidate nearest `word` when it is a near miss (ties: the first in `candidates`), else undefined. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
	const typed = word.toLowerCase();
	const allowed = typed.length >= 5 ? 2 : 1;
	let best: {candidate: string; distance: number} | undefined;
	for (const candidate of candidates) {
		const distance = editDistance(typed, candidate.toLowerCase());
		if (distance > 0 && distance <= allowed && (best === undefined || distance < best.distance)) best = {candidate, distance};
	}

	return best?.candidate;
}
