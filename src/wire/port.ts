// What a dashboard or script may ask of the batch, whichever process runs it: the port the store
// talks to, answered by the runner host's control (host/control.ts) and carried over the socket by
// the client's connection (client/connection.ts). Plain data only: everything here crosses a socket.
import type {DelegationConfig, RetryTarget, RouteEdit, SteerOutcome} from '../core/types.js';

/** A reply to a message: at once in-process, later across a socket. */
export type Reply<T> = T | Promise<T>;

/**
 * A task's pane as last published: plain data, never a live buffer. lastOutputAt: when the task last
 * printed (epoch ms, the runner's clock, so every client of a host shows the same), null: not yet.
 */
export type OutputSnapshot = {version: number; totalLines: number; tail: string[]; errorLine: string | null; lastOutputAt: number | null};

/** A range of a task's kept output; `first` is the absolute line number (0 = the task's first line ever) of lines[0]. */
export type OutputRange = {id: string; version: number; totalLines: number; first: number; lines: string[]};

export type OutputSearch = {
	id: string;
	query: string;
	/** Absolute line to start after (exclusive); null: from the end (direction -1) or the start (1). */
	from: number | null;
	direction: 1 | -1;
};

/**
 * What the store may ask of the core: snapshots it reads at once, and messages whose replies may
 * come later (the runner may live in another process). The runner implements it in-process
 * (host/control.ts); component tests may fake it. Lines are already sanitised.
 */
export type BatchControl = {
	cancel(id: string, options: {skipGrace: boolean}): Reply<boolean>;
	shutdown(options: {skipGrace: boolean}): Reply<void>;
	/** Snapshot: the panes whose output moved since the versions given (absent id = never seen). Always synchronous (a client answers it from what the host pushed). */
	outputChanges(versions: Readonly<Record<string, number>>, tailLines: number): Record<string, OutputSnapshot>;
	/** Message: the last `last` kept lines of a task's output (all kept lines when absent). */
	readOutput(request: {id: string; last?: number}): Reply<OutputRange | undefined>;
	/** Message: the absolute line of the next match, or null. */
	searchOutput(request: OutputSearch): Reply<{line: number | null}>;
	/** The routing config as it now stands (absent: the batch cannot be steered). A snapshot read. */
	routing?(): DelegationConfig;
	/** The profiles a new profile route can name: those that exist and are no route yet. A snapshot read. */
	profiles?(): string[];
	/** Saves route edits into config.yaml, records them and re-plans; a refused edit changes nothing. */
	steer?(edits: readonly RouteEdit[]): Reply<SteerOutcome>;
	/** Sends a task (back) into the queue on a route of the active mode (by name) or an explicit model, as a new attempt when it had ended. */
	reroute?(id: string, target: RetryTarget): Reply<{ok: boolean; message: string}>;
	/** Re-reads config.yaml (after a conflict), re-planning when its routing changed. */
	reload?(): Reply<SteerOutcome>;
};
