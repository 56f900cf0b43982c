// The parent agent dies (kill -9 of the MCP client) mid-batch: its server goes with it, the batch
// runs on under its runner host, and a new MCP session finds it with `batches` and waits for it.
import {spawn} from 'node:child_process';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, it, onTestFinished} from 'vitest';
import {cliEnv, makeHome, recordedGroups, type TestHome} from '../helpers/run-cli.js';
import {connectMcp, mcpArgs} from '../helpers/mcp-client.js';
import {isProcessRunning} from '../helpers/processes.js';
import {waitFor, waitForLine} from '../helpers/wait-for.js';

const parentScript = fileURLToPath(new URL('../fixtures/mcp-parent.mjs', import.meta.url));

function home(): TestHome {
	const created = makeHome();
	onTestFinished(() => created.remove());
	return created;
}

describe('hermes-delegate mcp: the parent dies mid-batch', () => {
	it('the batch runs on; a new session finds it with batches and waits for it', async () => {
		const test = home();
		const go = path.join(test.dir, 'go');
		const tasks = [{goal: `First [fake:until-file=${go}]`, option: 'deep'}, {goal: `Second [fake:until-file=${go}]`}];
		const parent = spawn(process.execPath, [parentScript, process.execPath, ...mcpArgs()], {env: {...cliEnv(test), MCP_TASKS: JSON.stringify(tasks)}, stdio: ['ignore', 'pipe', 'inherit']});
		onTestFinished(() => {
			parent.kill('SIGKILL');
		});
		const [, batchId, serverPid] = await waitForLine(parent.stdout, /^batch (\S+) server (\d+)$/, {timeoutMs: 60_000});
		await waitFor(() => recordedGroups(path.join(test.runsDir, batchId!)).length === 2, {message: 'both agents started'});

		parent.kill('SIGKILL');
		// Its server sees its stdin close and ends; the batch does not.
		await waitFor(() => !isProcessRunning(Number(serverPid)), {message: 'the orphaned MCP server ended'});

		const mcp = await connectMcp(test, {name: 'reborn-parent'});
		onTestFinished(async () => mcp.close());
		const found = (await mcp.call('batches')).json().batches.find((batch: {batch_id: string}) => batch.batch_id === batchId);
		expect(found).toMatchObject({state: 'live', finished: false, started_by: 'doomed-parent', tasks: '2 running'});

		test.write('go', '');
		const waited = (await mcp.call('batch_wait', {batch_id: batchId, timeout_s: 120})).json();
		expect(waited.results.map((result: {status: string; route: {name: string}}) => [result.status, result.route.name])).toEqual([['succeeded', 'deep'], ['succeeded', 'fast']]);
	});
});
