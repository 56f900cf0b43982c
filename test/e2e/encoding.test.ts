// Tasks files and stdin that are not UTF-8: exit 2, the problem and the fix named, nothing started.
import {describe, expect, it, onTestFinished} from 'vitest';
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import type {BatchReport} from '../../src/core/types.js';
import {makeHome, runCli} from '../helpers/run-cli.js';

function home() {
	const created = makeHome();
	onTestFinished(() => created.remove());
	return created;
}

const tasks = '[{"goal":"Résumé of the café menu","context":"[fake:duration=0.1] [fake:echo-args]"}]';

describe('task input that is not UTF-8', () => {
	it('a Latin-1 file is refused, naming the byte offset, the line and iconv', async () => {
		const test = home();
		const file = path.join(test.dir, 'tasks.json');
		writeFileSync(file, Buffer.from(tasks, 'latin1'));
		const run = await runCli(test, ['run', file]);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toContain(`${file}:1: is not UTF-8 text: byte 0xE9 at byte offset 11`);
		expect(run.stderr).toContain(`iconv -f latin1 -t UTF-8 ${file}`);
		expect(test.agentRuns()).toEqual([]);
	});

	it('a UTF-16 file is refused as UTF-16, not "got a string"', async () => {
		const test = home();
		const file = path.join(test.dir, 'tasks.json');
		writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(tasks, 'utf16le')]));
		const run = await runCli(test, ['run', file]);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toContain('is UTF-16 LE text');
		expect(run.stderr).not.toContain('got a string');
		expect(test.agentRuns()).toEqual([]);
	});

	it('Latin-1 on stdin is refused too', async () => {
		const test = home();
		const run = await runCli(test, ['run', '-'], {input: Buffer.from(tasks, 'latin1') as unknown as string});
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toContain('<stdin>:1: is not UTF-8 text');
		expect(test.agentRuns()).toEqual([]);
	});

	it('a UTF-8 file with a byte-order mark runs, the goal intact', async () => {
		const test = home();
		const file = path.join(test.dir, 'tasks.json');
		writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(tasks)]));
		const run = await runCli(test, ['run', file]);
		expect(run.exitCode).toBe(0);
		expect((JSON.parse(run.stdout) as BatchReport).results[0]?.goal).toBe('Résumé of the café menu');
	});
});
