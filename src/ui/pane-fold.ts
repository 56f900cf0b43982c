// A pane's spend and activity lines, folded onto one row where the pane is short: early in a task both say little that changes ("spend not read yet", "no tool call
// yet"), and two rows of that in a pane of seven left it one line of output.

/** Spend on the left, in at most half the row; the activity in what is left. */
export function foldedLine(spendAt: (width: number) => string, activityAt: (width: number) => string, width: number): string {
	const spend = spendAt(Math.max(1, Math.floor(width / 2) - 1));
	return `${spend} · ${activityAt(Math.max(1, width - [...spend].length - 3))}`;
}
