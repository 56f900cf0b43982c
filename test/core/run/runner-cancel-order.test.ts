// When the operator cancels, task.cancelling (what the pane shows) goes out before the cascade's
// SIGTERM, which first reads the whole of /proc for the task's family: the state change is not held
// up by that scan. The
// SIGTERM still follows in the same call. The agent is a real fake-agent process, stopped
// (SIGSTOP) so that a SIGTERM sent to it stays pending, where /proc/<pid>/status shows it, until
// the cascade's SIGKILL ends it: whether it had been sent is read, not raced.
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder} from '../../../src/core/run-folder/folder.js';
import {BatchRunner} from '../../../src/core/run/runner.js';
import {defaultSettings} from '../../../src/core/config/settings.js';
import {readProcStat} from '../../../src/core/process/proc-tree.js';
import type {BatchEvent, DelegationConfig} from '../../../src/core/types.js';
import {fakeAgentPath, fakeCapabilities, fakeVersionEnv, sigtermPending} from '../../helpers/processes.js';
import {waitFor} from '../../helpers/wait-for.js';
import {scratchAfterEach} from '../../helpers/scratch.js';

const builtIn: DelegationConfig = {
	mode: 'default',
	modelMap: {options: []},
	profileRoutes: {profiles: []},
	builtin: {}, source: {path: '/nonexistent/config.yaml', exists: false},
};

const scratch = scratchAfterEach();

/** A batch of one running fake agent, stopped: {runner, pid, events, report}. */
async function stoppedAgent(graceMs: number) {
	const home = scratch.folder('runner-cancel-order-');
	const plan = planBatch({tasks: [{goal: 'wait to be cancelled', context: '[fake:forever] [fake:ready]'}], delegation: builtIn, settings: defaultSettings});
	const runner = new BatchRunner(plan, {
		hermesBin: fakeAgentPath,
		capabilities: fakeCapabilities(),
		folder: createRunFolder(home),
		concurrency: 1,
		graceMs,
		env: {...fakeVersionEnv(), FAKE_HERMES_ARGV_FILE: path.join(home, 'argv.jsonl')},
	});
	const events: BatchEvent[] = [];
	runner.subscribe(event => {
		events.push(event);
		scratch.track(event);
	});
	const report = runner.start();
	await waitFor(() => runner.output('t01')?.stdout.lines().includes('READY') ?? false, {message: 'READY from t01'});
	const started = events.find(event => event.type === 'task.started');
	if (started?.type !== 'task.started') throw new Error('t01 has not started');
	process.kill(started.pid, 'SIGSTOP');
	await waitFor(() => readProcStat(started.pid)?.state === 'T', {message: 'the agent stopped'});
	expect(sigtermPending(started.pid)).toBe(false);
	return {runner, pid: started.pid, events, report};
}

describe.runIf(process.platform === 'linux')('cancel: the operator hears first, then the cascade signals', () => {
	it('emits task.cancelling before SIGTERM is sent, and sends it within the same cancel call', async () => {
		const {runner, pid, events, report} = await stoppedAgent(300);
		let pendingWhenHeard: boolean | undefined;
		runner.subscribe(event => {
			if (event.type === 'task.cancelling') pendingWhenHeard = sigtermPending(pid);
		});

		expect(runner.cancel('t01')).toBe(true);

		expect(pendingWhenHeard).toBe(false);
		expect(sigtermPending(pid)).toBe(true);
		// Stopped, it cannot act on SIGTERM: the grace period ends and SIGKILL does.
		expect((await report).results[0]).toMatchObject({status: 'cancelled', signal: 'SIGKILL'});
		expect(events.filter(event => 'id' in event).map(event => event.type)).toEqual(['task.started', 'task.cancelling', 'task.killed', 'task.finished']);
	});

	it('a kill (no grace) says cancelling before killed', async () => {
		const {runner, pid, events, report} = await stoppedAgent(300);

		expect(runner.cancel('t01', {skipGrace: true})).toBe(true);

		expect(events.filter(event => 'id' in event).map(event => event.type)).toEqual(['task.started', 'task.cancelling', 'task.killed']);
		expect((await report).results[0]).toMatchObject({status: 'cancelled', signal: 'SIGKILL'});
		expect(readProcStat(pid)).toBeUndefined();
	});

	it('a kill asked for on hearing of the cancel reaches the cascade (the grace is not waited out)', async () => {
		// A grace longer than the test's timeout: only the kill can end the task in time.
		const {runner, events, report} = await stoppedAgent(600_000);
		// A listener (another client of the runner host, say) that answers the cancel with a kill at once.
		let killAccepted: boolean | undefined;
		runner.subscribe(event => {
			if (event.type === 'task.cancelling') killAccepted = runner.cancel('t01', {skipGrace: true});
		});

		expect(runner.cancel('t01')).toBe(true);

		expect(killAccepted).toBe(true);
		expect((await report).results[0]).toMatchObject({status: 'cancelled', signal: 'SIGKILL'});
		expect(events.filter(event => 'id' in event).map(event => event.type)).toEqual(['task.started', 'task.cancelling', 'task.killed', 'task.finished']);
	});
});
