// Property-based, end to end (a few dozen CLI runs): invalid task input given as a file or on
// stdin, as text or as bytes that are not UTF-8, always ends in exit 2 with a message that names
// the place and the fix: no stack trace, no agent started, no run folder made.
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import {stringify} from 'yaml';
import {afterAll, describe, expect, it} from 'vitest';
import {InputError} from '../../src/core/errors.js';
import {decodeUtf8} from '../../src/core/text/read-text.js';
import {maxOneLineLength, parseTasks, taskFields} from '../../src/core/input/tasks.js';
import {makeHome, runCli} from '../helpers/run-cli.js';

const home = makeHome();
afterAll(() => home.remove());

function isRefused(bytes: Buffer): boolean {
	try {
		parseTasks(decodeUtf8(bytes, 'x'), {label: 'x'});
		return false;
	} catch (error) {
		if (error instanceof InputError) return true;
		throw error;
	}
}

const oddString = fc.oneof(fc.string({maxLength: 12}), fc.constantFrom('', '\u0000', '../x', 'x'.repeat(maxOneLineLength + 1), '\u001B]0;t\u0007', '漢\u0301'));
const oddValue = fc.oneof(oddString, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(oddString, {maxLength: 2}));
const taskLike = fc.dictionary(fc.oneof(fc.constantFrom(...taskFields), oddString), oddValue, {maxKeys: 5});
const document = fc.oneof(
	fc.array(taskLike, {maxLength: 4}).map(tasks => Buffer.from(JSON.stringify(tasks))),
	fc.array(taskLike, {maxLength: 4}).map(tasks => Buffer.from(stringify(tasks))),
	fc.string().map(text => Buffer.from(text)),
	fc.uint8Array({minLength: 1, maxLength: 40}).map(bytes => Buffer.from(bytes)),
);

async function checkRefused(bytes: Buffer, via: 'file' | 'stdin'): Promise<void> {
	const file = path.join(home.dir, 'tasks.input');
	writeFileSync(file, bytes);
	const run = via === 'file' ? await runCli(home, ['run', file]) : await runCli(home, ['run', '-'], {input: bytes as unknown as string});
	expect(run.exitCode, run.stderr).toBe(2);
	expect(run.stderr).toContain(via === 'file' ? file : '<stdin>');
	expect(run.stderr).toContain('fix: ');
	expect(run.stderr).not.toMatch(/\n\s+at |internal error/);
	expect(home.agentRuns()).toEqual([]);
	expect(home.runs()).toEqual([]);
}

describe('run with invalid tasks, property-based', () => {
	it('from a file: exit 2, place and fix named, nothing started', async () => {
		await fc.assert(fc.asyncProperty(document.filter(isRefused), bytes => checkRefused(bytes, 'file')), {numRuns: 20});
	}, 120_000);

	it('on stdin: the same', async () => {
		await fc.assert(fc.asyncProperty(document.filter(isRefused), bytes => checkRefused(bytes, 'stdin')), {numRuns: 10});
	}, 120_000);
});
