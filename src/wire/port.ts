// What a dashboard or script may ask of the batch: the port the store talks to, answered by the
// runner host's control (host/control.ts) and carried over the socket by the client's connection
// (client/connection.ts). Plain data only: everything here crosses a socket.
import type {DelegationConfig, RetryTarget, RouteEdit, SteerOutcome} from '../core/types.js';

/** Why a batch's routing cannot change: the one sentence the host's refusals and the store's notices say. */
export const cannotSteer = 'this batch cannot be steered: it was started without its config';

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
 * What the store may ask of the batch: messages, whose replies come later (the runner lives in
 * another process), and two reads of what the host last said (routing, profiles). The runner
 * host answers them (host/control.ts); the client carries them over the socket
 * (client/connection.ts); component tests fake it. Output is not asked for: the host pushes it
 * (client/panes.ts). Lines are already sanitised.
 */
export type BatchControl = {
	cancel(id: string, options: {skipGrace: boolean}): Promise<boolean>;
	shutdown(options: {skipGrace: boolean}): Promise<void>;
	/** Message: the last `last` kept lines of a task's output (all kept lines when absent). */
	readOutput(request: {id: string; last?: number}): Promise<OutputRange | undefined>;
	/** Message: the absolute line of the next match, or null. */
	searchOutput(request: OutputSearch): Promise<{line: number | null}>;
	/** The routing config as it now stands (absent: the batch cannot be steered). A snapshot read. */
	routing?(): DelegationConfig;
	/** The profiles a new profile route can name: those that exist and are no route yet. A snapshot read. */
	profiles?(): string[];
	/** Saves route edits into config.yaml, records them and re-plans; a refused edit changes nothing. */
	steer?(edits: readonly RouteEdit[]): Promise<SteerOutcome>;
	/** Sends a task (back) into the queue on a route of the active mode (by name) or an explicit model, as a new attempt when it had ended. */
	reroute?(id: string, target: RetryTarget): Promise<{ok: boolean; message: string}>;
	/** Re-reads config.yaml (after a conflict), re-planning when its routing changed. */
	reload?(): Promise<SteerOutcome>;
};
