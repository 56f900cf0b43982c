// The MCP server keeps one runner host started ahead of the next `delegate` (src/mcp/warm-host.ts).
// What that must not change: the plan is made from config.yaml as it is when `delegate` is called,
// not when the spare started; a spare whose server dies (kill -9) ends having started nothing; and
// in both protocol eras the log of a `delegate` reaches the client that asked for it.
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {makeHome, modelMapConfig, type TestHome} from '../helpers/run-cli.js';
import {connectMcp} from '../helpers/mcp-client.js';
import {isProcessRunning} from '../helpers/processes.js';
import {waitFor} from '../helpers/wait-for.js';

function home(): TestHome {
	const created = makeHome();
	onTestFinished(() => created.remove());
	return created;
}

/** The server's children that are runner hosts waiting for a batch (or running one). */
function hostChildren(serverPid: number): number[] {
	let children: string;
	try {
		children = readFileSync(`/proc/${serverPid}/task/${serverPid}/children`, 'utf8');
	} catch {
		return [];
	}

	return children.split(' ').filter(Boolean).map(Number).filter(pid => {
		try {
			return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('__host');
		} catch {
			return false;
		}
	});
}

describe('hermes-delegate mcp: the runner host started ahead', () => {
	it('plans from config.yaml as it is at the delegate, not as it was when the spare started; host.log says how long the start took', async () => {
		const test = home();
		const mcp = await connectMcp(test);
		onTestFinished(async () => mcp.close());
		await waitFor(() => hostChildren(mcp.pid).length === 1, {message: 'the spare runner host'});
		// The route's model changes while the spare waits.
		test.write('config.yaml', modelMapConfig.replace('model: google/gemini-3-flash-preview', 'model: google/gemini-3-pro-preview'));
		const answer = (await mcp.call('delegate', {tasks: [{goal: 'Hi [fake:duration=0.1]', option: 'fast'}], wait_s: 120})).json();
		expect(answer.tasks[0].route).toMatchObject({name: 'fast', model: 'google/gemini-3-pro-preview'});
		expect(answer.results[0].status).toBe('succeeded');
		expect(test.agentRuns()[0]).toEqual(expect.arrayContaining(['google/gemini-3-pro-preview']));
		const hostLog = readFileSync(path.join(test.runsDir, answer.batch_id, 'host.log'), 'utf8');
		expect(hostLog).toMatch(/ready \d+ ms after its spec came \(\d+ ms after the process began\): node and modules \d+ · spec came \d+ · /);
		// The next spare is started once the answer has gone.
		await waitFor(() => hostChildren(mcp.pid).length >= 1, {message: 'a new spare'});
	});

	it('a spare whose server is killed (kill -9) ends by itself and leaves no run folder', async () => {
		const test = home();
		const mcp = await connectMcp(test);
		onTestFinished(async () => mcp.close());
		await waitFor(() => hostChildren(mcp.pid).length === 1, {message: 'the spare runner host'});
		const [spare] = hostChildren(mcp.pid);
		process.kill(mcp.pid, 'SIGKILL');
		await waitFor(() => !isProcessRunning(spare!), {message: 'the spare ended with its server'});
		expect(test.runs()).toEqual([]);
	});

	it('logs on stderr in every era; on 2026-07-28 through MCP only to a call whose _meta asks a level, and nothing outside a call', async () => {
		const test = home();
		const mcp = await connectMcp(test, {mode: 'auto'});
		onTestFinished(async () => mcp.close());
		expect(mcp.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
		const logged: string[] = [];
		mcp.client.setNotificationHandler('notifications/message', notification => {
			logged.push(String(notification.params.data));
		});
		const delegate = async (meta: Record<string, unknown>) => {
			const result = await mcp.client.callTool({name: 'delegate', arguments: {tasks: [{goal: 'Hi [fake:duration=0.1]'}]}, _meta: meta});
			return JSON.parse((result.content as Array<{text: string}>)[0]!.text).batch_id as string;
		};

		const unasked = await delegate({});
		const asked = await delegate({'io.modelcontextprotocol/logLevel': 'info'});
		await waitFor(() => logged.some(line => line.includes(`batch ${asked}: 1 task(s) started`)), {message: 'the log message'});
		// A call's log goes out before its answer: the first call's would have come already.
		expect(logged.filter(line => line.includes(unasked))).toEqual([]);
		await waitFor(() => mcp.stderr().includes(`hermes-delegate mcp: info: batch ${asked}: 1 task(s) started`), {message: 'the log on stderr'});
		expect(mcp.stderr()).toContain(`hermes-delegate mcp: info: batch ${unasked}: 1 task(s) started`);
		for (const batchId of [unasked, asked]) await mcp.call('batch_wait', {batch_id: batchId, timeout_s: 120});

		// Outside any call nobody asked a level: stderr only.
		test.write('config.yaml', modelMapConfig.replace('Cheap and quick', 'Only lookups'));
		await waitFor(() => mcp.listChanges() > 0, {message: 'list_changed'});
		await waitFor(() => mcp.stderr().includes('hermes-delegate mcp: info: the routing changed'), {message: 'the routing change on stderr'});
		// A round trip: a log message sent with it would be in before this answer.
		await mcp.call('routes');
		expect(logged.filter(line => line.includes('routing changed'))).toEqual([]);
	});
});
