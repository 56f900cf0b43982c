// `wait --jsonl` prints the same events whether the run is live or finished:
// the run's record (events.jsonl), then the live host's events of the same kinds without the ones
// already printed. Proven by waiting on the same run twice, once while a task still runs and once
// after the end: the two outputs must be identical, line for line.
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {makeHome, runCli, spawnCli, tasksJson} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/wait-for.js';

type Line = {type: string; id?: string};

function lines(stdout: string): Line[] {
	return stdout.trim().split('\n').map(line => JSON.parse(line) as Line);
}

describe('wait --jsonl', () => {
	it('prints the same events on a live run as on the finished run, with no duplicates', async () => {
		const test = makeHome();
		onTestFinished(() => test.remove());
		const go = path.join(test.dir, 'go');
		const tasks = tasksJson(
			{name: 'quick', goal: 'Answer at once', context: '[fake:duration=0] [fake:tools=2]'},
			{name: 'held', goal: 'Answer when told', context: `[fake:until-file=${go}]`},
		);
		const started = await runCli(test, ['run', '--detach', tasks]);
		expect(started.exitCode, started.stderr).toBe(0);
		const runId = started.stdout.trim();
		// Both started, t01 done: the record already holds events the host will also send.
		await waitFor(() => test.agentRuns().length === 2, {message: 'both agents to start'});
		const live = spawnCli(test, ['wait', runId, '--jsonl']);
		let liveOut = '';
		live.stdout.on('data', (chunk: Buffer) => {
			liveOut += chunk.toString('utf8');
		});
		await waitFor(() => liveOut.includes('"task.started"'), {message: 'the live wait to print the record'});
		writeFileSync(go, '');
		const liveCode = await new Promise<number | null>(resolve => live.on('close', resolve));
		expect(liveCode).toBe(0);

		const finished = await runCli(test, ['wait', runId, '--jsonl']);
		expect(finished.exitCode).toBe(0);
		expect(finished.stderr).not.toContain('no events.jsonl');
		// execa drops the last line break of its output.
		expect(finished.stdout).toBe(liveOut.trimEnd());
		const kinds = lines(finished.stdout).map(line => `${line.type}${line.id ? ` ${line.id}` : ''}`);
		expect(kinds.filter(kind => kind.startsWith('task.started')).sort()).toEqual(['task.started t01', 'task.started t02']);
		expect(kinds.filter(kind => kind.startsWith('task.finished')).sort()).toEqual(['task.finished t01', 'task.finished t02']);
		expect(kinds[0]).toBe('batch.planned');
		expect(kinds.at(-1)).toBe('batch.finished');
		// One of each: the record's events were not printed again from the host.
		expect(new Set(kinds).size).toBe(kinds.length);
		expect(kinds.some(kind => kind.startsWith('task.telemetry'))).toBe(false);
	});

	it('a run from before events.jsonl: its events from plan.json and results.json, and says so', async () => {
		const test = makeHome();
		onTestFinished(() => test.remove());
		const ran = await runCli(test, ['run', tasksJson({name: 'quick', goal: 'Answer at once', context: '[fake:duration=0]'})]);
		expect(ran.exitCode, ran.stderr).toBe(0);
		const runId = test.runs()[0]!;
		const {rmSync} = await import('node:fs');
		rmSync(path.join(test.runsDir, runId, 'events.jsonl'));
		const waited = await runCli(test, ['wait', runId, '--jsonl']);
		expect(waited.exitCode).toBe(0);
		expect(lines(waited.stdout).map(line => line.type)).toEqual(['batch.planned', 'task.finished', 'batch.finished']);
		expect(waited.stderr).toContain(`run ${runId} has no events.jsonl`);
	});
});
