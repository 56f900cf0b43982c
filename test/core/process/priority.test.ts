// Agents under the dashboard yield the CPU (core/process/priority.ts): a real agent process, its
// niceness and its session's autogroup niceness read back from /proc.
import {spawn} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {lowerAgentPriority} from '../../../src/core/process/priority.js';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder} from '../../../src/core/run-folder/folder.js';
import {BatchRunner} from '../../../src/core/run/runner.js';
import {defaultSettings} from '../../../src/core/config/settings.js';
import type {DelegationConfig} from '../../../src/core/types.js';
import {fakeAgentPath, fakeCapabilities, fakeVersionEnv} from '../../helpers/processes.js';
import {scratchAfterEach} from '../../helpers/scratch.js';

const scratch = scratchAfterEach();

/** Field 19 of /proc/PID/stat (after the parenthesised name): the process's nice value. */
function niceOf(pid: number): number {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** "/autogroup-123 nice 10" → 10; undefined where the kernel has no autogroup. */
function autogroupNiceOf(pid: number): number | undefined {
	if (!existsSync(`/proc/${pid}/autogroup`)) {
		return undefined;
	}

	return Number(/nice (-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'))?.[1]);
}

const builtin: DelegationConfig = {mode: 'model_map', modelMap: {options: [], default: undefined}, profileRoutes: {profiles: []}, builtin: {}, source: {path: '/nonexistent/config.yaml', exists: false}};

describe('agent priority', () => {
	it('lowers the niceness of an agent and of its session, and leaves it alone at 0', () => {
		const agent = spawn('sleep', ['30'], {detached: true, stdio: 'ignore'});
		const calm = spawn('sleep', ['30'], {detached: true, stdio: 'ignore'});
		try {
			lowerAgentPriority(agent.pid!, 7);
			lowerAgentPriority(calm.pid!, 0);
			expect(niceOf(agent.pid!)).toBe(7);
			expect(niceOf(calm.pid!)).toBe(0);
			const group = autogroupNiceOf(agent.pid!);
			if (group !== undefined) {
				expect(group).toBe(7);
				expect(autogroupNiceOf(calm.pid!)).toBe(0);
			}
		} finally {
			agent.kill('SIGKILL');
			calm.kill('SIGKILL');
		}
	});

	it('does not fail for a process that is already gone', () => {
		const gone = spawn('true');
		const pid = gone.pid!;
		return new Promise<void>(resolve => {
			gone.on('exit', () => {
				expect(() => lowerAgentPriority(pid, 10)).not.toThrow();
				resolve();
			});
		});
	});

	it('the runner gives each agent the niceness it was asked for before announcing it', async () => {
		const plan = planBatch({tasks: [{goal: '[fake:forever]', context: ''}], delegation: builtin, settings: defaultSettings});
		const runner = new BatchRunner(plan, {
			hermesBin: fakeAgentPath, capabilities: fakeCapabilities(), folder: createRunFolder(scratch.folder('agent-nice-')), concurrency: 1, graceMs: 300,
			env: fakeVersionEnv(), routing: {settings: defaultSettings, outsideWarnings: []}, agentNice: 9,
		});
		let nice: number | undefined;
		runner.subscribe(event => {
			scratch.track(event);
			if (event.type === 'task.started') {
				nice = niceOf(event.pid);
				runner.cancel(event.id);
			}
		});
		await runner.start();
		expect(nice).toBe(9);
	});
});
