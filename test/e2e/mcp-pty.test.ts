// A batch the parent agent started through MCP is the operator's to watch and steer: `attach` in a
// real terminal (tmux) shows it, and a cancel pressed there is what the agent reads in batch_status.
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {cliPath, makeHome, recordedGroups, type TestHome} from '../helpers/run-cli.js';
import {connectMcp} from '../helpers/mcp-client.js';
import {startTmux} from '../helpers/tmux.js';
import {waitFor} from '../helpers/wait-for.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function home(): TestHome {
	const created = makeHome();
	cleanups.push(() => created.remove());
	return created;
}

describe('an MCP-started batch in the dashboard', () => {
	it('attach shows it; a cancel in the dashboard shows as cancelled in batch_status', async () => {
		const test = home();
		const mcp = await connectMcp(test, {name: 'parent-agent', args: ['--grace', '1']});
		cleanups.push(async () => mcp.close());
		const {batch_id: batchId} = (await mcp.call('delegate', {tasks: [
			{goal: 'Never stop [fake:forever] [fake:ready]', name: 'runaway', option: 'deep'},
			{goal: `Wait [fake:until-file=${path.join(test.dir, 'go')}]`, name: 'patient'},
		]})).json();
		await waitFor(() => recordedGroups(path.join(test.runsDir, batchId)).length === 2, {message: 'both agents started'});

		const screen = startTmux([process.execPath, cliPath, 'attach', batchId], {env: {HERMES_HOME: test.dir, HERMES_DELEGATE_DEMO_HOME: path.join(test.dir, 'demo-home')}});
		cleanups.push(() => screen.kill());
		const shown = await screen.waitForScreen(/t01 runaway +● running/, {message: 'the MCP batch in the attached dashboard'});
		// The header names the parent that started it.
		expect(shown).toContain('started by parent-agent');
		screen.sendKeys('c');
		await screen.waitForScreen(/Cancel t01 'runaway'\? SIGTERM to its process group, SIGKILL after 1s\. y\/n/);
		screen.sendKeys('y');
		await screen.waitForScreen(/t01 runaway +⊘ cancelled/, {message: 'the cancel in the dashboard'});

		const status = (await mcp.call('batch_status', {batch_id: batchId})).json();
		expect(status.tasks.map((task: {id: string; status: string}) => [task.id, task.status])).toEqual([['t01', 'cancelled'], ['t02', 'running']]);
		test.write('go', '');
		const waited = (await mcp.call('batch_wait', {batch_id: batchId, timeout_s: 120})).json();
		expect(waited.results.map((result: {status: string}) => result.status)).toEqual(['cancelled', 'succeeded']);
	});
});
