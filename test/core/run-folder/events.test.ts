// The run's record of its events (events.jsonl), written and read back on a real disk: what is
// kept, what is not, and how a record cut short or missing is read.
import {appendFileSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {EventRecord, eventsFileName, readRecordedRun} from '../../../src/core/run-folder/events.js';
import type {BatchEvent, BatchReport, RoutePlan, TaskResult, TaskTelemetry} from '../../../src/core/types.js';
import {plannedTask} from '../../helpers/render.js';
import {scratchAfterEach} from '../../helpers/scratch.js';

const scratch = scratchAfterEach();

const task = plannedTask(0, {decision: {route: {kind: 'model', name: 'fast', description: 'd', model: 'm', provider: 'p', api_key: 'sk-secret'}}});
const plan = {mode: 'model_map', tasks: [task], warnings: []} as unknown as RoutePlan;
const result = {id: 't01', status: 'succeeded', started_at: '2026-01-01T00:00:00.000Z', finished_at: '2026-01-01T00:00:05.000Z'} as unknown as TaskResult;
const report = {summary: '1/1 tasks succeeded', results: [result]} as unknown as BatchReport;
const telemetry = (calls: number) => ({type: 'task.telemetry', id: 't01', telemetry: {tool_calls: calls} as unknown as TaskTelemetry, at: calls}) as BatchEvent;

function recorded(dir: string): BatchEvent[] {
	return readFileSync(path.join(dir, eventsFileName), 'utf8').trim().split('\n').map(line => JSON.parse(line) as BatchEvent);
}

describe('the run\'s event record', () => {
	it('keeps the lifecycle, a task\'s last telemetry just before its end, and no api_key', () => {
		const dir = scratch.folder('hd-events-');
		const record = new EventRecord(dir);
		const events: BatchEvent[] = [
			{type: 'batch.planned', runId: 'r', runDir: dir, plan, at: 1},
			{type: 'task.started', id: 't01', pid: 1, argv: [], at: 2},
			telemetry(1),
			{type: 'task.waiting', id: 't01', waitingFor: null, at: 3},
			telemetry(2),
			{type: 'task.finished', id: 't01', result, at: 4},
			{type: 'batch.finished', report, at: 5},
		];
		for (const event of events) record.add(event);
		const back = recorded(dir);
		expect(back.map(event => event.type)).toEqual(['batch.planned', 'task.started', 'task.telemetry', 'task.finished', 'batch.finished']);
		expect(back[2]).toMatchObject({telemetry: {tool_calls: 2}});
		const text = readFileSync(path.join(dir, eventsFileName), 'utf8');
		expect(text).not.toContain('sk-secret');
		expect(text).toContain('<set in config.yaml; not written here>');
		expect(record.problem).toBeUndefined();
		expect(readRecordedRun(dir)).toEqual({events: back, from: 'events.jsonl'});
	});

	it('a folder it cannot write to: one problem, and the batch goes on', () => {
		const dir = path.join(scratch.folder('hd-events-'), 'gone');
		const record = new EventRecord(dir);
		record.add({type: 'batch.reopened', at: 1});
		expect(record.problem).toMatch(/the run's events could not be written to .*gone\/events\.jsonl/);
	});

	it('reads a line still being written as not there, and takes batch.finished from results.json when the record lacks it', () => {
		const dir = scratch.folder('hd-events-');
		writeFileSync(path.join(dir, eventsFileName), `${JSON.stringify({type: 'batch.planned', runId: 'r', runDir: dir, plan, at: 1})}\n`);
		appendFileSync(path.join(dir, eventsFileName), '{"type":"task.started","id":"t0');
		expect(readRecordedRun(dir)?.events.map(event => event.type)).toEqual(['batch.planned']);
		writeFileSync(path.join(dir, 'results.json'), JSON.stringify(report));
		const run = readRecordedRun(dir);
		expect(run?.events.map(event => event.type)).toEqual(['batch.planned', 'batch.finished']);
		expect(run?.events.at(-1)).toMatchObject({report: {summary: '1/1 tasks succeeded'}, at: Date.parse('2026-01-01T00:00:05.000Z')});
	});

	it('a run without a record: its plan and results as events; neither: undefined', () => {
		const dir = scratch.folder('hd-events-');
		expect(readRecordedRun(dir)).toBeUndefined();
		writeFileSync(path.join(dir, 'plan.json'), JSON.stringify(plan));
		writeFileSync(path.join(dir, 'results.json'), JSON.stringify(report));
		const run = readRecordedRun(dir);
		expect(run?.from).toBe('plan and results');
		expect(run?.events.map(event => event.type)).toEqual(['batch.planned', 'task.finished', 'batch.finished']);
		expect(run?.events[0]).toMatchObject({at: Date.parse('2026-01-01T00:00:00.000Z')});
		rmSync(path.join(dir, 'plan.json'));
		expect(readRecordedRun(dir)).toBeUndefined();
	});
});
