// `hermes-delegate mcp` as a parent agent meets it: the SDK's client spawns the built CLI over
// stdio and does the whole loop on the fake agent.
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {makeHome, recordedGroups, runCli, type TestHome} from '../helpers/run-cli.js';
import {connectMcp, type McpSession} from '../helpers/mcp-client.js';
import {waitFor} from '../helpers/wait-for.js';
import {listGroupMembers} from '../../src/core/process/group.js';

/** Three model routes; fast is the default. */
const threeRoutes = `# the operator's own notes stay where they are
delegation:
  backend: model_map
  backends:
    model_map:
      options:
        - name: fast
          description: "Cheap and quick: lookups, summaries, simple edits."
          provider: openrouter
          model: google/gemini-3-flash-preview
        - name: deep
          description: "Slow and careful: hard debugging and design work."
          provider: anthropic
          model: claude-opus-5
          reasoning_effort: high
        - name: local
          description: "Private material that must not leave the machine."
          provider: ollama
          model: qwen3-coder
      default: fast
`;

function home(config = threeRoutes): TestHome {
	const created = makeHome(config);
	onTestFinished(() => created.remove());
	return created;
}

async function session(test: TestHome, options: Parameters<typeof connectMcp>[1] = {}): Promise<McpSession> {
	const opened = await connectMcp(test, options);
	onTestFinished(async () => opened.close());
	return opened;
}

function untilFile(test: TestHome, name: string): string {
	return `[fake:until-file=${path.join(test.dir, name)}]`;
}

/** argv of the agent whose prompt contains `marker`. */
function argvOf(test: TestHome, marker: string): string[] {
	const found = test.agentRuns().find(argv => argv.some(part => typeof part === 'string' && part.includes(marker)));
	expect(found, `an agent was started for ${marker}`).toBeDefined();
	return found as string[];
}

describe('hermes-delegate mcp', () => {
	it('lists the seven tools; delegate\'s route field is an enum in config order described by the operator\'s words', async () => {
		const mcp = await session(home());
		const {tools} = await mcp.client.listTools();
		expect(tools.map(tool => tool.name).sort()).toEqual(['batch_status', 'batch_wait', 'batches', 'cancel', 'delegate', 'routes', 'task_output']);
		const delegate = tools.find(tool => tool.name === 'delegate')!;
		const option = (delegate.inputSchema as any).properties.tasks.items.properties.option;
		expect(option.enum).toEqual(['fast', 'deep', 'local']);
		expect(option.description).toContain('- deep: Slow and careful: hard debugging and design work.');
		expect(option.description).toContain('- local: Private material that must not leave the machine.');
		expect((delegate.inputSchema as any).properties.tasks.items.properties.profile).toBeUndefined();

		const routes = (await mcp.call('routes')).json();
		expect(routes).toMatchObject({mode: 'model_map', route_field: 'option', default: 'fast', max_tasks: 100});
		expect(routes.routes.map((route: {name: string}) => route.name)).toEqual(['fast', 'deep', 'local']);
		expect(routes.routes[1]).toEqual({name: 'deep', description: 'Slow and careful: hard debugging and design work.', model: 'claude-opus-5', provider: 'anthropic', reasoning_effort: 'high'});
	});

	it('delegates five tasks on three routes, waits, and returns each result with its route; the agents got the route\'s flags', async () => {
		const test = home();
		const mcp = await session(test, {name: 'parent-agent'});
		const started = (await mcp.call('delegate', {tasks: [
			{goal: 'Look up A [fake:duration=0.2]', name: 'lookup', option: 'fast'},
			{goal: 'Debug B [fake:duration=0.2]', option: 'deep'},
			{goal: 'Read the private notes C [fake:duration=0.2]', option: 'local'},
			{goal: 'Plain D [fake:duration=0.2]'},
			{goal: 'Design E [fake:duration=0.2]', characteristic: 'reasoning', timeout_s: 120},
		]})).json();
		expect(started.batch_id).toMatch(/^\d{8}-\d{6}-[\da-f]{6}$/);
		expect(started.watch).toBe(`hermes-delegate attach ${started.batch_id}`);
		expect(started.tasks.map((task: any) => [task.id, task.route?.name])).toEqual([['t01', 'fast'], ['t02', 'deep'], ['t03', 'local'], ['t04', 'fast'], ['t05', 'deep']]);
		// t04 named no route: the default; t05's goal shares "design" with deep's description.
		expect(started.tasks[1].route).toMatchObject({provider: 'anthropic', model: 'claude-opus-5', reasoning_effort: 'high'});

		const progress: number[] = [];
		const waited = (await mcp.call('batch_wait', {batch_id: started.batch_id, timeout_s: 120}, {onprogress: event => progress.push(event.progress)})).json();
		expect(waited.timed_out).toBe(false);
		expect(waited.summary).toBe('5/5 tasks succeeded');
		expect(waited.results.map((result: any) => [result.id, result.status, result.route.name])).toEqual([
			['t01', 'succeeded', 'fast'], ['t02', 'succeeded', 'deep'], ['t03', 'succeeded', 'local'], ['t04', 'succeeded', 'fast'], ['t05', 'succeeded', 'deep'],
		]);
		expect(waited.results[0].result).toContain('Look up A');
		expect(JSON.stringify(waited)).not.toContain('base_url');
		// A progress notification per finished task (the wait may start after some have finished).
		expect(progress.length).toBeGreaterThan(0);
		expect(progress.at(-1)).toBe(5);

		expect(argvOf(test, 'Debug B')).toEqual(expect.arrayContaining(['-m', 'claude-opus-5', '--provider', 'anthropic', '--reasoning', 'high']));
		expect(argvOf(test, 'Read the private notes C')).toEqual(expect.arrayContaining(['-m', 'qwen3-coder', '--provider', 'ollama']));
		expect(argvOf(test, 'Plain D')).toEqual(expect.arrayContaining(['-m', 'google/gemini-3-flash-preview']));

		const listed = (await mcp.call('batches')).json();
		expect(listed.batches[0]).toMatchObject({batch_id: started.batch_id, started_by: 'parent-agent', tasks: '5 succeeded'});
		const ls = await runCli(test, ['ls']);
		expect(ls.stdout).toContain('started by parent-agent (MCP)');
	});

	it('a task the plan refuses (this Hermes cannot take its prompt) is refused on its own with the reason; the others run', async () => {
		const test = home();
		// Hermes 0.19.0 has no --query-file: a prompt over one argument's 128 KiB cannot reach it.
		const mcp = await session(test, {env: {FAKE_HERMES_VERSION: '0.19.0'}});
		const started = (await mcp.call('delegate', {tasks: [
			{goal: 'Fine [fake:duration=0.1]', option: 'fast'},
			{goal: `Huge ${'x'.repeat(128 * 1024 - 6)}`, name: 'huge'},
		]})).json();
		expect(started.tasks[0].route.name).toBe('fast');
		expect(started.tasks[1]).toMatchObject({id: 't02', name: 'huge'});
		expect(started.tasks[1].refused).toContain('has no --query-file');
		const waited = (await mcp.call('batch_wait', {batch_id: started.batch_id, timeout_s: 120})).json();
		expect(waited.results.map((result: any) => result.status)).toEqual(['succeeded', 'refused']);
	});

	it('batch_status shows a running task\'s route, attempt, elapsed and spend (unknown, never 0); task_output gives a plain window', async () => {
		const test = home();
		const mcp = await session(test);
		const {batch_id: batchId} = (await mcp.call('delegate', {tasks: [{goal: `Hold on ${untilFile(test, 'go')} [fake:escapes] [fake:ready]`, option: 'deep'}]})).json();
		await waitFor(() => recordedGroups(path.join(test.runsDir, batchId)).length === 1, {message: 'the agent started'});
		await waitFor(async () => (await mcp.call('task_output', {batch_id: batchId, task_id: 't01'})).json().lines.length > 0, {message: 'output'});

		const status = (await mcp.call('batch_status', {batch_id: batchId})).json();
		expect(status.finished).toBe(false);
		expect(status.tasks[0]).toMatchObject({id: 't01', status: 'running', attempt: 1, route: {name: 'deep', model: 'claude-opus-5'}});
		expect(status.tasks[0].elapsed_s).toBeGreaterThanOrEqual(0);
		for (const value of Object.values(status.tasks[0].spend)) expect(value === 'unknown' || typeof value === 'number').toBe(true);

		const output = await mcp.call('task_output', {batch_id: batchId, task_id: 't01', lines: 500});
		// eslint-disable-next-line no-control-regex
		expect(output.text).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]|\\u001b/i);
		test.write('go', '');
		const waited = (await mcp.call('batch_wait', {batch_id: batchId, timeout_s: 120})).json();
		expect(waited.results[0].status).toBe('succeeded');
		// Once its host has gone, the output comes from the task's log, made as plain.
		await waitFor(async () => (await mcp.call('batches')).json().batches[0].state === 'finished', {message: 'the host to end'});
		const after = await mcp.call('task_output', {batch_id: batchId, task_id: 't01', search: 'fake answer'});
		expect(after.json().matches).toBeGreaterThan(0);
		// eslint-disable-next-line no-control-regex
		expect(after.text).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]|\\u001b/i);
		const finished = (await mcp.call('batch_status', {batch_id: batchId})).json();
		expect(finished).toMatchObject({finished: true, counts: {succeeded: 1}});
		expect(finished.tasks[0]).toMatchObject({status: 'succeeded', route: {name: 'deep'}, quiet_s: null});
		expect(typeof finished.tasks[0].spend.cost_usd).toBe('number');
		const whole = await mcp.call('task_output', {batch_id: batchId, task_id: 't01', lines: 500});
		expect(whole.json().lines.length).toBeGreaterThan(1);
		expect(whole.text).not.toMatch(/\\u001b/i);
	});

	it('delegate with wait_s answers with the results, and a progress notification per finished task', async () => {
		const mcp = await session(home());
		const progress: Array<number> = [];
		const answer = (await mcp.call('delegate', {tasks: [{goal: 'One [fake:duration=0.1]'}, {goal: 'Two [fake:duration=0.1]', option: 'deep'}], wait_s: 120}, {onprogress: event => progress.push(event.progress)})).json();
		expect(answer.batch_id).toBeDefined();
		expect(answer.timed_out).toBe(false);
		expect(answer.results.map((result: any) => [result.id, result.status, result.route.name])).toEqual([['t01', 'succeeded', 'fast'], ['t02', 'succeeded', 'deep']]);
		expect(progress.at(-1)).toBe(2);
	});

	it('cancel of a runaway ends its process group; the batch says cancelled', async () => {
		const test = home();
		const mcp = await session(test, {args: ['--grace', '1']});
		const {batch_id: batchId} = (await mcp.call('delegate', {tasks: [{goal: 'Never stop [fake:forever] [fake:ready]', name: 'runaway'}]})).json();
		const dir = path.join(test.runsDir, batchId);
		await waitFor(() => recordedGroups(dir).length === 1, {message: 'the runaway started'});
		const [pgid] = recordedGroups(dir);

		const cancelled = (await mcp.call('cancel', {batch_id: batchId, task_id: 't01'})).json();
		expect(cancelled).toMatchObject({stopped: ['t01'], tasks: [{id: 't01', status: 'cancelled'}]});
		expect(listGroupMembers(pgid!)).toEqual([]);
		const status = (await mcp.call('batch_status', {batch_id: batchId})).json();
		expect(status.tasks[0].status).toBe('cancelled');
	});

	it('batch_wait until any returns at the next finished task; cancel of the whole batch stops the rest; the log says what started', async () => {
		const test = home();
		const mcp = await session(test, {args: ['--grace', '1']});
		const logged: string[] = [];
		mcp.client.setNotificationHandler('notifications/message', notification => {
			logged.push(String(notification.params.data));
		});
		await mcp.client.setLoggingLevel('info');
		const {batch_id: batchId} = (await mcp.call('delegate', {tasks: [
			{goal: 'Quick [fake:duration=0.1] [fake:lines=30]'},
			{goal: 'Never stop [fake:forever] [fake:ready]'},
			{goal: 'Never stop either [fake:forever] [fake:ready]'},
		]})).json();
		const first = (await mcp.call('batch_wait', {batch_id: batchId, until: 'any', timeout_s: 120})).json();
		expect(first).toMatchObject({timed_out: false, finished: false});
		expect(first.results.map((result: any) => [result.id, result.status])).toEqual([['t01', 'succeeded']]);
		// Given once, t01 is not "the next" any more: a second wait for any runs to its timeout.
		const second = (await mcp.call('batch_wait', {batch_id: batchId, until: 'any', timeout_s: 0.5})).json();
		expect(second).toMatchObject({timed_out: true, finished: false});
		await waitFor(() => logged.some(line => line.includes(`batch ${batchId}: 3 task(s) started`)), {message: 'the log message'});

		const window = (await mcp.call('task_output', {batch_id: batchId, task_id: 't01', offset: 2, lines: 3})).json();
		expect(window.lines.map((line: {n: number}) => line.n)).toEqual([2, 3, 4]);

		await waitFor(() => recordedGroups(path.join(test.runsDir, batchId)).length === 3, {message: 'every agent started'});
		const stopped = (await mcp.call('cancel', {batch_id: batchId})).json();
		expect(stopped.tasks).toEqual([{id: 't02', status: 'cancelled'}, {id: 't03', status: 'cancelled'}]);
		for (const pgid of recordedGroups(path.join(test.runsDir, batchId))) expect(listGroupMembers(pgid)).toEqual([]);
	});

	it('a route description changed with `config route` while connected: list_changed arrives, and tools/list carries the new words', async () => {
		const test = home();
		const mcp = await session(test);
		await mcp.client.listTools();
		const edited = await runCli(test, ['config', 'route', 'deep', '--description', 'Only for proofs and gnarly concurrency bugs.']);
		expect(edited.exitCode, edited.stderr).toBe(0);
		await waitFor(() => mcp.listChanges() > 0, {message: 'notifications/tools/list_changed'});
		const {tools} = await mcp.client.listTools();
		const option = (tools.find(tool => tool.name === 'delegate')!.inputSchema as any).properties.tasks.items.properties.option;
		expect(option.description).toContain('- deep: Only for proofs and gnarly concurrency bugs.');
		expect((await mcp.call('routes')).json().routes[1].description).toBe('Only for proofs and gnarly concurrency bugs.');
	});

	it('no tool returns a key or a base_url: not routes, not tools/list, not a task\'s plan or result', async () => {
		const test = home(`delegation:
  backend: model_map
  backends:
    model_map:
      options:
        - name: private
          description: On our own endpoint.
          base_url: https://user:hunter2-secret@llm.internal/v1
          api_key: sk-hunter2-secret
          model: our-model
      default: private
`);
		const mcp = await session(test);
		const texts = [JSON.stringify(await mcp.client.listTools()), (await mcp.call('routes')).text];
		const started = await mcp.call('delegate', {tasks: [{goal: 'Hi [fake:duration=0.1]', option: 'private'}], wait_s: 120});
		texts.push(started.text, (await mcp.call('batch_status', {batch_id: started.json().batch_id})).text);
		expect(started.json().results[0].status).toBe('succeeded');
		// (A warning may name the api_key field, to say a key sits in plain text; never its value.)
		for (const text of texts) expect(text).not.toMatch(/hunter2|\\?"(base_url|api_key)\\?":/);
	});

	it('serves a 2026-07-28 client as well as a 2025-11-25 one', async () => {
		const test = home();
		const modern = await session(test, {mode: 'auto'});
		expect(modern.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
		expect((await modern.call('routes')).json().mode).toBe('model_map');
		await modern.client.listTools();
		const edited = await runCli(test, ['config', 'route', 'fast', '--description', 'Lookups only.']);
		expect(edited.exitCode, edited.stderr).toBe(0);
		await waitFor(() => modern.listChanges() > 0, {message: 'list_changed in the 2026-07-28 era'});
		const legacy = await session(test);
		expect(legacy.client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
	});
});
