// `attach` on a finished run: the dashboard's store made from the run folder, read-only. It talks
// to the store through the same port as a live attach (wire/port.ts BatchControl), answered from
// what the folder records: the run's events (core/run-folder/events.ts) replayed in order, as a
// host's snapshot is (client/attach-store.ts), and each task's newest log read back into the output
// its pane showed (core/hermes/log-lines.ts), served by the runner host's own output control, so
// panes, zoom and search answer as they did live. Nothing can be steered: cancel and shutdown have
// nothing to act on, and the store's one readOnly flag tells the keys and the header.
import {InputError} from '../core/errors.js';
import {loggedOutput} from '../core/hermes/log-lines.js';
import type {TaskOutput} from '../core/output/task-output.js';
import {attemptLogs} from '../core/run-folder/attempts.js';
import {readRecordedRun, type RecordedRun} from '../core/run-folder/events.js';
import {outputControl} from '../host/control.js';
import {wholePane} from '../host/pane-ledger.js';
import {defaultTailLines} from '../wire/protocol.js';
import {createBatchStore} from '../state/store.js';
import type {BatchStore} from '../state/store-types.js';
import type {BatchControl} from '../wire/port.js';

export type FinishedRun = {store: BatchStore; from: RecordedRun['from']};

export function openFinishedRun(run: {runId: string; dir: string}): FinishedRun {
	const recorded = readRecordedRun(run.dir);
	const planned = recorded?.events[0];
	if (recorded === undefined || planned?.type !== 'batch.planned') {
		throw new InputError(`run ${run.runId} has neither a readable events.jsonl nor a plan.json: there is nothing to show`, {file: run.dir}, `\`hermes-delegate logs ${run.runId}\` lists what its folder holds`);
	}

	const outputs = new Map<string, TaskOutput>();
	for (const task of planned.plan.tasks) {
		const newest = attemptLogs(run.dir, task.id).at(-1);
		const output = newest && loggedOutput(newest.logPath);
		if (output) outputs.set(task.id, output);
	}

	const control: BatchControl = {
		cancel: async () => false,
		shutdown: async () => undefined,
		...outputControl(id => outputs.get(id)),
	};
	const {plan} = planned;
	// The clock counts from the batch's start and stops at its finish (batch.finished), as it did live.
	const store = createBatchStore({control, plan, runId: run.runId, runDir: run.dir, concurrency: 0, graceMs: 0, now: planned.at, readOnly: true});
	for (const event of recorded.events) {
		store.getState().applyEvent(event);
	}

	store.getState().takeOutput(Object.fromEntries([...outputs].map(([id, output]) => [id, wholePane(output, defaultTailLines)])));
	store.getState().tick(Date.now());
	return {store, from: recorded.from};
}
