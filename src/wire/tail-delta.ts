// Tail deltas: how the runner host keeps a client's panes current by sending what changed in
// them, not whole tails. A pane shows a task's last N complete lines and its unfinished ones;
// complete lines never change once counted, so a client that holds them up to line k needs only
// the lines after k and the unfinished ones. The host makes them (host/tail-deltas.ts), a client
// rebuilds its panes from them (client/panes.ts); docs/protocol.md, "Output pushes".

/**
 * One pane's change for a client that takes deltas (its hello said tailDelta): the complete lines
 * from line `from` to `totalLines` (at most the client's tailLines, the newest), then the
 * unfinished lines as they stand. When `from` is where the client's held lines end, it appends;
 * otherwise `fresh` replaces what it holds (the host sends that after a snapshot, and when more
 * lines came than a tail holds).
 */
export type OutputDelta = {
	version: number;
	totalLines: number;
	from: number;
	fresh: string[];
	unfinished: string[];
	/** The complete lines the host keeps of this task: a tail never shows more (the client trims what it holds to it). */
	kept: number;
	errorLine: string | null;
	lastOutputAt: number | null;
};
