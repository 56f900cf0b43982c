// A FIFO where a run folder's file or a config file should be: opening it for reading would wait
// for a writer that never comes, so `ls`, `logs` and `spend` hung, and `config show --config FIFO`
// too. They open only regular files, without blocking. The guard timeout below
// only turns a hang into a failure; nothing here measures time.
import {execFileSync} from 'node:child_process';
import {rmSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {describe, expect, it, onTestFinished} from 'vitest';
import {cliPath, makeHome, runCli, tasksJson, type TestHome} from '../helpers/run-cli.js';

const hangGuardMs = 30_000;

async function cli(test: TestHome, args: string[]) {
	const result = await execa(process.execPath, [cliPath, ...args], {env: {...process.env, HERMES_HOME: test.dir, TMPDIR: test.dir, XDG_CACHE_HOME: path.join(test.dir, '.cache'), NO_COLOR: '1'}, timeout: hangGuardMs, reject: false, input: ''});
	expect(result.timedOut, `hermes-delegate ${args.join(' ')} hung`).toBe(false);
	return result;
}

function fifo(file: string): void {
	rmSync(file, {force: true});
	execFileSync('mkfifo', [file]);
}

describe('a FIFO in place of a file', () => {
	it('does not hang ls, logs or spend when it replaces a run folder\'s files', {timeout: 120_000}, async () => {
		const test = makeHome();
		// The FIFOs go first: the home's own cleanup reads the run's process records.
		onTestFinished(() => {
			rmSync(test.runsDir, {recursive: true, force: true});
			test.remove();
		});
		expect((await runCli(test, ['run', tasksJson({goal: 'one', context: '[fake:duration=0.1]'})])).exitCode).toBe(0);
		const [runId] = test.runs();
		const dir = path.join(test.runsDir, runId!);
		// First everything but the plan (so that logs and spend go on to the others), then the plan too.
		for (const files of [['results.json', 'processes.jsonl', 'owner.json', 'logs/t01.log'], ['plan.json']]) {
			for (const file of files) fifo(path.join(dir, file));
			await cli(test, ['ls']);
			await cli(test, ['ls', '--json']);
			await cli(test, ['logs', runId!]);
			await cli(test, ['logs', runId!, 't01']);
			await cli(test, ['spend', runId!]);
		}
	});

	it('refuses --config naming a FIFO in config show, naming the file', {timeout: 60_000}, async () => {
		const test = makeHome();
		onTestFinished(() => test.remove());
		const config = path.join(test.dir, 'fifo.yaml');
		fifo(config);
		const shown = await cli(test, ['config', 'show', '--config', config]);
		expect(shown.exitCode).toBe(2);
		expect(shown.stderr).toContain(`${config}: is a FIFO (named pipe), not a regular file`);
	});
});
