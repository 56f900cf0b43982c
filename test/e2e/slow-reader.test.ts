// A reader slower than hermes-delegate (`run … | (sleep 1; wc -c)`, Python's capture_output):
// every byte of the report must reach it. The reader here takes nothing until hermes-delegate has
// printed its last line on stderr, so without the final flush the process would already be gone,
// and whatever the pipe could not hold (all past 64 KiB) with it.
import {once} from 'node:events';
import {describe, expect, it, onTestFinished} from 'vitest';
import type {BatchReport} from '../../src/core/types.js';
import {makeHome, spawnCli, tasksJson} from '../helpers/run-cli.js';
import {waitForLine} from '../helpers/wait-for.js';

// These tests are about the engine and need the agent's whole stdout in `result`: Hermes 0.20.0's -Q
// gives exactly that (stream-json would keep only the reply).
process.env['FAKE_HERMES_VERSION'] = '0.20.0';

// Six tasks whose results are 64 KiB each: a report of about 400 KB, far more than a pipe holds.
const bigTasks = tasksJson(...Array.from({length: 6}, (_, index) => ({goal: `Big output ${index}`, context: '[fake:bytes=100000]'})));

async function readSlowly(args: string[]): Promise<{stdout: string; exitCode: number | null}> {
	const home = makeHome();
	onTestFinished(() => home.remove());
	const child = spawnCli(home, args);
	const exited = once(child, 'exit');
	// stdout is left unread until the summary line on stderr says the report was written.
	await waitForLine(child.stderr, /results in /, {timeoutMs: 60_000});
	const chunks: Buffer[] = [];
	child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
	await once(child.stdout, 'end');
	const [exitCode] = await exited as [number | null];
	return {stdout: Buffer.concat(chunks).toString('utf8'), exitCode};
}

describe('run with a slow reader on stdout', () => {
	it('delivers the whole JSON report, not the first 64 KiB', async () => {
		const {stdout, exitCode} = await readSlowly(['run', bigTasks]);
		expect(exitCode).toBe(0);
		expect(stdout.length).toBeGreaterThan(300_000);
		const report = JSON.parse(stdout) as BatchReport;
		expect(report.results).toHaveLength(6);
	}, 90_000);

	it('delivers every --jsonl line, batch.finished last', async () => {
		const {stdout, exitCode} = await readSlowly(['run', '--jsonl', bigTasks]);
		expect(exitCode).toBe(0);
		const lines = stdout.trimEnd().split('\n');
		const events = lines.map(line => JSON.parse(line) as {type: string});
		expect(events.at(-1)?.type).toBe('batch.finished');
	}, 90_000);
});
