// The demo's runaway (t06) is there to be cancelled by the operator: in the dashboard it has no
// timeout of its own and runs until cancelled or quit; headless (`run --demo`) it keeps the one
// run.ts gives it, or the batch would never end.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {prepareBatch} from '../../src/commands/prepare.js';

const scratch: string[] = [];
const savedTmp = process.env['TMPDIR'];
afterEach(() => {
	process.env['TMPDIR'] = savedTmp;
	if (savedTmp === undefined) delete process.env['TMPDIR'];
	for (const dir of scratch.splice(0)) rmSync(dir, {recursive: true, force: true});
});

async function runaway(demoRunawaySeconds?: number) {
	const dir = mkdtempSync(path.join(tmpdir(), 'demo-runaway-'));
	scratch.push(dir);
	// The demo writes its home into the temp folder: this test's own.
	process.env['TMPDIR'] = dir;
	const batch = await prepareBatch(undefined, {demo: true}, {env: {}, stdinIsTTY: true, readStdin: async () => '', ...(demoRunawaySeconds === undefined ? {} : {demoRunawaySeconds})});
	const task = batch.plan.tasks.find(planned => planned.spec.name === 'runaway-crawler');
	expect(task, 'the demo has its runaway').toBeDefined();
	return task!.spec;
}

describe('the demo\'s runaway', () => {
	it('has no timeout in the dashboard: it runs until the operator cancels it or quits', async () => {
		expect((await runaway()).timeout).toBeUndefined();
	});

	it('keeps the timeout the headless run gives it', async () => {
		expect((await runaway(8)).timeout).toBe(8);
	});
});
