// Bad input to `hermes-delegate mcp` is a tool error that names the fix (or, for what is not a
// tool call at all, a protocol error), never a crash, and nothing starts: no run folder, no agent.
import {spawn} from 'node:child_process';
import {describe, expect, it, onTestFinished} from 'vitest';
import {makeHome, modelMapConfig, runCli, type TestHome} from '../helpers/run-cli.js';
import {cliEnv} from '../helpers/run-cli.js';
import {connectMcp, mcpArgs, type McpSession} from '../helpers/mcp-client.js';
import {waitFor} from '../helpers/wait-for.js';

function home(config = modelMapConfig): TestHome {
	const created = makeHome(config);
	onTestFinished(() => created.remove());
	return created;
}

async function session(test: TestHome): Promise<McpSession> {
	const opened = await connectMcp(test);
	onTestFinished(async () => opened.close());
	return opened;
}

function nothingStarted(test: TestHome): void {
	expect(test.runs()).toEqual([]);
	expect(test.agentRuns()).toEqual([]);
}

const profileRoutes = `delegation:
  backend: profile_routes
  backends:
    profile_routes:
      profiles:
        - name: coder
          description: Writes and refactors code; runs tests.
      default: coder
`;

describe('hermes-delegate mcp: bad input', () => {
	it.each([
		['an empty goal', {tasks: [{goal: '  '}]}, /tasks\[0\]\.goal: must not be empty/],
		['no tasks', {tasks: []}, /give at least one task/],
		['an unknown option', {tasks: [{goal: 'fine'}, {goal: 'typo', option: 'fsat'}]}, /tasks\[1\]\.option: "fsat" is not a route of model_map \(routes: fast, deep\).*Fix: call routes/],
		['a profile under model routes', {tasks: [{goal: 'x', profile: 'coder'}]}, /tasks\[0\]\.profile: the active routing mode is model_map, which takes "option"/],
		['an oversized goal', {tasks: [{goal: 'x'.repeat(129 * 1024)}]}, /over the 128 KiB a task may carry/],
		['a field no task has', {tasks: [{goal: 'x', model: 'gpt-9'}]}, /tasks\[0\]: Unrecognized key: "model"|tasks\[0\].*model/],
		['a wait over 600 s', {tasks: [{goal: 'x'}], wait_s: 601}, /wait_s/],
		['tasks that are no list', {tasks: 'do everything'}, /tasks: /],
	])('%s is a tool error naming the fix, and nothing starts', async (_what, args, message) => {
		const test = home();
		const mcp = await session(test);
		const answer = await mcp.call('delegate', args);
		expect(answer.isError).toBe(true);
		expect(answer.text).toMatch(message);
		nothingStarted(test);
	});

	it('more tasks than mcp.max_tasks in delegate.yaml is a tool error naming the setting', async () => {
		const test = home();
		test.write('delegate.yaml', 'mcp:\n  max_tasks: 2\n');
		const mcp = await session(test);
		const answer = await mcp.call('delegate', {tasks: [{goal: 'a'}, {goal: 'b'}, {goal: 'c'}]});
		expect(answer.isError).toBe(true);
		expect(answer.text).toContain('3 tasks is more than the 2 one delegate call may start');
		expect(answer.text).toContain('mcp.max_tasks in delegate.yaml');
		nothingStarted(test);
	});

	it('a profile outside the allowlist is a tool error listing the profiles', async () => {
		const test = home(profileRoutes);
		test.write('profiles/coder/config.yaml', 'model: {default: qwen3-coder}\n');
		const mcp = await session(test);
		const answer = await mcp.call('delegate', {tasks: [{goal: 'x', profile: 'root'}]});
		expect(answer.isError).toBe(true);
		expect(answer.text).toContain('tasks[0].profile: "root" is not a route of profile_routes (routes: coder)');
		nothingStarted(test);
	});

	it('bad arguments to the other tools, and an unknown batch, are tool errors; an unknown tool is a protocol error', async () => {
		const test = home();
		const mcp = await session(test);
		expect((await mcp.call('batch_status', {})).text).toMatch(/batch_id/);
		expect((await mcp.call('batch_wait', {batch_id: 'x', timeout_s: 601})).isError).toBe(true);
		const unknown = await mcp.call('batch_status', {batch_id: '20990101-000000-abcdef'});
		expect(unknown.isError).toBe(true);
		expect(unknown.text).toContain('no run "20990101-000000-abcdef"');
		expect((await mcp.call('task_output', {batch_id: 'x', task_id: 't01', lines: 100_000})).isError).toBe(true);
		await expect(mcp.client.callTool({name: 'delegate_everything', arguments: {}})).rejects.toThrow(/delegate_everything/);
		// Still answering.
		expect((await mcp.call('routes')).isError).toBe(false);
		nothingStarted(test);
	});

	it('a bad flag is exit 2 with the fix on stderr, before anything is served', async () => {
		const test = home();
		const result = await runCli(test, ['mcp', '--grace', 'soon']);
		expect(result.exitCode).toBe(2);
		expect(result.stdout).toBe('');
		expect(result.stderr).toContain('--grace must be a number');
	});

	it('malformed JSON-RPC is answered with a protocol error and the server goes on', async () => {
		const test = home();
		const server = spawn(process.execPath, mcpArgs(), {env: cliEnv(test), stdio: ['pipe', 'pipe', 'pipe']});
		onTestFinished(() => {
			server.kill('SIGKILL');
		});
		let out = '';
		server.stdout.on('data', chunk => {
			out += String(chunk);
		});
		server.stdin.write('{this is not json\n');
		server.stdin.write('[1, 2]\n');
		server.stdin.write(`${JSON.stringify({jsonrpc: '2.0', id: 7, method: 'no/such/method'})}\n`);
		server.stdin.write(`${JSON.stringify({jsonrpc: '2.0', id: 1, method: 'initialize', params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'raw', version: '0'}}})}\n`);
		const answers = () => out.split('\n').filter(Boolean).map(line => JSON.parse(line) as {id?: number; result?: unknown; error?: {code: number}});
		await waitFor(() => answers().some(answer => answer.id === 1 && answer.result !== undefined), {message: 'the initialize answer'});
		// The line that is no JSON is dropped (the SDK's stdio reader answers nothing it cannot parse); the unknown method is -32601.
		expect(answers().find(answer => answer.id === 7)?.error?.code).toBe(-32601);
		// JSON that is no JSON-RPC message: -32600 with no id.
		expect(answers().find(answer => answer.id === null)?.error?.code).toBe(-32600);
		expect(server.exitCode).toBeNull();
		nothingStarted(test);
	});
});
