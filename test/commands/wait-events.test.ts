// wait --jsonl's printer: the run folder's record first, then the live host's events of the same
// kinds, counting off what the record already printed (the two are one sequence).
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {RecordPrinter} from '../../src/commands/wait-events.js';
import {EventRecord} from '../../src/core/run-folder/events.js';
import type {BatchEvent, BatchReport, RoutePlan, TaskResult, TaskTelemetry} from '../../src/core/types.js';
import {plannedTasks} from '../helpers/render.js';
import {scratchAfterEach} from '../helpers/scratch.js';

const scratch = scratchAfterEach();
const plan: RoutePlan = {mode: 'model_map', tasks: plannedTasks(1), warnings: []};
const result = {id: 't01', status: 'succeeded'} as unknown as TaskResult;
const stream: BatchEvent[] = [
	{type: 'batch.planned', runId: 'r', runDir: '/r', plan, at: 1},
	{type: 'task.started', id: 't01', pid: 1, argv: [], at: 2},
	{type: 'task.telemetry', id: 't01', telemetry: {} as TaskTelemetry, at: 3},
	{type: 'task.waiting', id: 't01', waitingFor: null, at: 3},
	{type: 'task.finished', id: 't01', result, at: 4},
	{type: 'batch.finished', report: {summary: 's', results: [result]} as unknown as BatchReport, at: 5},
];

function printed(dir: string, recordedSoFar: number, fallback: boolean): string[] {
	const record = new EventRecord(dir);
	for (const event of stream.slice(0, recordedSoFar)) record.add(event);
	const lines: string[] = [];
	const printer = new RecordPrinter(dir, event => lines.push(`${event.type}@${event.at}`));
	printer.fromRecord({fallback});
	// The host's snapshot holds the whole history: the printer hears it all, from the start.
	for (const event of stream) printer.live(event);
	expect(printer.endedWithFinish).toBe(true);
	return lines;
}

const expected = ['batch.planned@1', 'task.started@2', 'task.finished@4', 'batch.finished@5'];

describe('wait --jsonl\'s events', () => {
	it.each([0, 1, 2, 5, 6])('the same lines, once each, whatever the record held when wait began (%i events)', recordedSoFar => {
		expect(printed(scratch.folder('hd-wait-'), recordedSoFar, false)).toEqual(expected);
	});

	it('a run that may still be starting (plan.json, no record yet) is told by its host alone', () => {
		const dir = scratch.folder('hd-wait-');
		writeFileSync(path.join(dir, 'plan.json'), JSON.stringify(plan));
		const lines: string[] = [];
		const printer = new RecordPrinter(dir, event => lines.push(event.type));
		printer.fromRecord({fallback: false});
		expect(lines).toEqual([]);
		printer.fromRecord({fallback: true});
		expect(lines).toEqual(['batch.planned']);
		expect(printer.partial).toBe(true);
	});
});
