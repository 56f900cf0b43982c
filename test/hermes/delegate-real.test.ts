// hermes-delegate driving the real `hermes` (0.19.0 and 0.20.0) against the mock model server:
// the built CLI (`node dist/cli.js run TASKS --jsonl --hermes-bin <real hermes> --config …`) with
// HERMES_HOME a throw-away home whose active_profile sticks to a profile, as an operator's may.
// Per release: a model_map batch (a plain route, a reasoning route, a base_url route, an HTTP 500),
// a profile_routes batch and a built-in batch (Hermes's flat delegation keys, plus a prompt over
// 128 KiB) run at once in beforeAll; a cancel during a slow reply and a `sleep` tool runs on its own.
import {once} from 'node:events';
import {spawn} from 'node:child_process';
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {execa} from 'execa';
import {afterAll, beforeAll, describe, expect, it, onTestFinished} from 'vitest';
import {listGroupMembers, signalGroup} from '../../src/core/process/group.js';
import type {BatchReport, TaskResult} from '../../src/core/types.js';
import {makeHermesTestHome, type HermesTestHome} from '../helpers/hermes-test-home.js';
import {startMockModelServer, type MockModelServer, type RecordedRequest} from '../helpers/mock-model-server.js';
import {usage} from '../helpers/mock-model-wire.js';
import {killStartedHermes, livingProcesses, realHermesReleases} from '../helpers/real-hermes.js';
import {cliPath, recordedGroups} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/wait-for.js';

// Safety nets for a loaded machine (each hermes start is seconds of CPU), never what is asserted.
const budget = 300_000;
const waitBudget = 180_000;
const http500 = 'API call failed after 1 retries: HTTP 500: mock internal server error';

type Event = {type: string; id?: string; argv?: string[]; report?: BatchReport};
type DelegateRun = {exitCode: number | undefined; stderr: string; events: Event[]; report: BatchReport; argvOf(id: string): string[] | undefined; result(name: string): TaskResult};

function parseRun(exitCode: number | undefined, stdout: string, stderr: string): DelegateRun {
	const events = stdout.split('\n').filter(Boolean).map(line => JSON.parse(line) as Event);
	const report = events.find(event => event.type === 'batch.finished')?.report;
	if (!report) throw new Error(`hermes-delegate exited ${exitCode} without a batch.finished event; stderr:\n${stderr}`);
	return {
		exitCode,
		stderr,
		events,
		report,
		argvOf: id => events.find(event => event.type === 'task.started' && event.id === id)?.argv,
		result(name) {
			const found = report.results.find(result => result.name === name);
			if (!found) throw new Error(`no result named ${name} in ${JSON.stringify(report.results.map(result => result.name))}`);
			return found;
		},
	};
}

/** `hermes-delegate run FILE --jsonl …` with exactly the home's environment (nothing of ours leaks in). */
function delegateArgs(bin: string, tasksFile: string, configFile: string, extra: string[] = []): string[] {
	return [cliPath, 'run', tasksFile, '--jsonl', '--hermes-bin', bin, '--config', configFile, ...extra];
}

async function runDelegate(home: HermesTestHome, args: string[]): Promise<DelegateRun> {
	const run = await execa(process.execPath, args, {env: home.env, extendEnv: false, stdin: 'ignore', reject: false});
	return parseRun(run.exitCode, run.stdout, run.stderr);
}

let mock: MockModelServer;
beforeAll(async () => {
	mock = await startMockModelServer();
});
afterAll(async () => {
	killStartedHermes();
	await mock.close();
});

for (const release of realHermesReleases()) {
	const {version} = release;
	const hasReasoning = version !== '0.19.0';

	describe.skipIf(release.skip !== undefined)(`hermes-delegate on the real hermes ${version}`, () => {
		const bin = release.bin ?? '';
		/** Unique per release, so the two releases' requests are told apart at the mock. */
		const prompt = (what: string) => `${what} (hermes ${version})`;
		const requestsFor = (goal: string): RecordedRequest[] => mock.requests.filter(request => request.lastUser === goal);
		const routeKey = `sk-route-${version}`;
		const routePath = `/route-local-${version}/v1`;
		let home: HermesTestHome;
		let modelMapConfig: string;
		let modelMap: DelegateRun;
		let profiles: DelegateRun;
		let builtin: DelegateRun;
		const write = (name: string, text: string) => {
			const file = path.join(home.dir, name);
			writeFileSync(file, text);
			return file;
		};

		beforeAll(async () => {
			home = makeHermesTestHome({
				baseUrl: mock.baseUrl,
				model: 'm-root',
				profiles: {p1: {model: 'm-sticky'}, coder: {model: 'm-coder'}, researcher: {model: 'm-researcher'}},
				// Sticky: every `hermes` without -p would run as p1.
				activeProfile: 'p1',
			});
			modelMapConfig = write('model-map.yaml', `delegation:
  backend: model_map
  backends:
    model_map:
      options:
        - name: fast
          description: Quick answers and lookups.
          provider: custom
          model: m-fast
        - name: deep
          description: Careful reasoning.
          provider: custom
          model: m-deep
          reasoning_effort: high
        - name: local
          description: A local OpenAI-compatible server.
          base_url: ${mock.origin}${routePath}
          api_key: ${routeKey}
          model: m-local
      default: fast
`);
			const profileConfig = write('profile-routes.yaml', `delegation:
  backend: profile_routes
  backends:
    profile_routes:
      profiles:
        - name: coder
          description: Writes code.
        - name: researcher
          description: Researches.
      default: coder
`);
			// Hermes's own flat keys, read by its built-in delegate_task: no backend.
			const builtinConfig = write('builtin.yaml', `delegation:
  model: m-builtin
  provider: custom
`);
			const modelMapTasks = write('model-map-tasks.json', JSON.stringify([
				{name: 'fast', goal: prompt('fast [mock:text=Paris.]'), option: 'fast'},
				{name: 'deep', goal: prompt('deep [mock:text=Deep answer.]'), option: 'deep'},
				{name: 'local', goal: prompt('local [mock:text=Local answer.]'), option: 'local'},
				{name: 'broken', goal: prompt('broken [mock:error500]'), option: 'fast'},
			]));
			const profileTasks = write('profile-tasks.json', JSON.stringify([
				{name: 'code', goal: prompt('code [mock:text=Coded.]'), profile: 'coder'},
				{name: 'research', goal: prompt('research [mock:text=Researched.]'), profile: 'researcher'},
			]));
			const builtinTasks = write('builtin-tasks.json', JSON.stringify([
				{name: 'huge', goal: `${prompt('huge [mock:text=Never sent.]')} ${'x'.repeat(129 * 1024)}`},
				{name: 'builtin', goal: prompt('builtin [mock:text=Built in.]')},
			]));
			[modelMap, profiles, builtin] = await Promise.all([
				runDelegate(home, delegateArgs(bin, modelMapTasks, modelMapConfig, ['-j', '4'])),
				runDelegate(home, delegateArgs(bin, profileTasks, profileConfig)),
				runDelegate(home, delegateArgs(bin, builtinTasks, builtinConfig)),
			]);
		}, budget);

		afterAll(() => {
			for (const pgid of home ? recordedGroupsOf(home) : []) signalGroup(pgid, 'SIGKILL');
			home?.remove();
		});

		it('model_map: each task on its route\'s model, with -p default and -Q, the exact reply in answer and result', () => {
			expect(modelMap.exitCode, modelMap.stderr).toBe(1); // the HTTP 500 task
			const fast = modelMap.result('fast');
			expect(fast).toMatchObject({status: 'succeeded', answer: 'Paris.', result: 'Paris.', hermes_version: version, model: 'm-fast'});
			expect(fast.session_id).toMatch(/^\S+$/);
			for (const field of ['tokens', 'model_used', 'tool_calls'] as const) expect(fast).toHaveProperty(field);
			expect(requestsFor(prompt('fast [mock:text=Paris.]'))[0]?.model).toBe('m-fast');
			const argv = modelMap.argvOf(fast.id) ?? [];
			expect(argv.slice(1, 3)).toEqual(['-p', 'default']);
			expect(argv).toContain('-Q');
			expect(argv).not.toContain('--format');
		});

		it('a sticky active_profile does not capture the model_map tasks: they run in the root home', () => {
			for (const name of ['fast', 'deep']) {
				const sessionId = modelMap.result(name).session_id ?? 'no session id';
				expect(home.holdsSession(sessionId), name).toBe(true);
				expect(home.holdsSession(sessionId, 'p1'), name).toBe(false);
			}
		});

		it(hasReasoning ? 'a reasoning route passes --reasoning' : 'a reasoning route runs without --reasoning, and that task says why', () => {
			const deep = modelMap.result('deep');
			expect(deep).toMatchObject({status: 'succeeded', answer: 'Deep answer.'});
			expect(requestsFor(prompt('deep [mock:text=Deep answer.]'))[0]?.reasoning_effort).toBe(hasReasoning ? 'high' : null);
			expect(deep.route.reasoning_effort).toBe(hasReasoning ? 'high' : null);
			const argv = modelMap.argvOf(deep.id) ?? [];
			if (hasReasoning) {
				expect(argv.join(' ')).toContain('--reasoning high');
				expect(deep.warnings ?? []).not.toContainEqual(expect.stringContaining('reasoning'));
			} else {
				expect(argv).not.toContain('--reasoning');
				expect(deep.warnings ?? []).toContainEqual(expect.stringContaining('--reasoning'));
			}
		});

		it('a base_url route reaches its URL with its key (lmstudio: chat completions), and the key is written nowhere', () => {
			const [request] = mock.requests.filter(seen => seen.path.startsWith(`${routePath}/`));
			expect(request).toMatchObject({model: 'm-local', authorization: `Bearer ${routeKey}`});
			expect(request?.path).toMatch(/\/chat\/completions$/);
			expect(modelMap.argvOf(modelMap.result('local').id)?.join(' ')).toContain('--provider lmstudio');
			expect(JSON.stringify(modelMap.events)).not.toContain(routeKey);
			expect(readFileSync(modelMap.report.results_file, 'utf8')).not.toContain(routeKey);
			expect(modelMap.stderr).not.toContain(routeKey);
		});

		// openai-api speaks the Responses API from 0.20.0 on (hermes-facts.test.ts): a base_url route goes
		// through lmstudio, which speaks chat completions on both releases.
		it('a base_url route on a chat-completions server succeeds', () => {
			expect(modelMap.result('local')).toMatchObject({status: 'succeeded', answer: 'Local answer.'});
		});

		it('an HTTP 500: failed, with Hermes\'s own message as the error', () => {
			expect(modelMap.result('broken')).toMatchObject({status: 'failed', exit_code: 1, error: http500, answer: ''});
		});

		it('profile_routes: each task runs as its profile, on that profile\'s model', () => {
			expect(profiles.exitCode, profiles.stderr).toBe(0);
			for (const [name, profile, answer] of [['code', 'coder', 'Coded.'], ['research', 'researcher', 'Researched.']] as const) {
				const result = profiles.result(name);
				expect(result).toMatchObject({status: 'succeeded', answer, route: {kind: 'profile', profile}});
				expect(profiles.argvOf(result.id)?.slice(1, 3)).toEqual(['-p', profile]);
				expect(requestsFor(result.goal)[0]?.model).toBe(`m-${profile}`);
				expect(home.holdsSession(result.session_id ?? 'no session id', profile)).toBe(true);
			}
		});

		// Spend comes from the session's row in the state.db of the home it ran in (the profile's for
		// -p NAME), read here with plain SQL, apart from the code under test; the mock answers every
		// completion with the same usage, so the output tokens are known too.
		it('spend: each task\'s result holds its session row\'s counts, from the root home or its profile\'s, and the report sums them', () => {
			const rowOf = (sessionId: string, profile?: string) => {
				const file = profile === undefined ? path.join(home.dir, 'state.db') : path.join(home.dir, 'profiles', profile, 'state.db');
				const db = new Database(file, {readonly: true, fileMustExist: true});
				try {
					return db.prepare('SELECT input_tokens, output_tokens, api_call_count, tool_call_count, model, cost_status FROM sessions WHERE id = ?').get(sessionId) as Record<string, unknown> | undefined;
				} finally {
					db.close();
				}
			};

			for (const [run, name, profile] of [[modelMap, 'fast', undefined], [profiles, 'code', 'coder']] as const) {
				const result = run.result(name);
				const row = rowOf(result.session_id ?? 'no session id', profile);
				expect(row, name).toBeDefined();
				expect(result.spend, name).toMatchObject({
					input_tokens: row!['input_tokens'],
					output_tokens: usage.completion_tokens,
					api_calls: row!['api_call_count'],
					tool_calls: row!['tool_call_count'],
					model: row!['model'],
					// A custom provider has no price in Hermes: the cost is unknown, never 0.
					cost_usd: null,
				});
				expect(result.spend?.api_calls, name).toBeGreaterThan(0);
				expect(result.spend?.input_tokens, name).toBeGreaterThan(0);
			}

			const succeeded = profiles.report.results.filter(result => result.status === 'succeeded');
			expect(profiles.report.spend?.total.output_tokens).toBe(succeeded.reduce((sum, result) => sum + (result.spend?.output_tokens ?? 0), 0));
		});

		it('built-in mode runs on Hermes\'s own flat delegation.model/provider', () => {
			const result = builtin.result('builtin');
			expect(result).toMatchObject({status: 'succeeded', answer: 'Built in.', model: 'm-builtin'});
			expect(requestsFor(result.goal)[0]?.model).toBe('m-builtin');
		});

		it('a prompt over 128 KiB is refused at planning (no --query-file here): no process started for it', () => {
			expect(builtin.exitCode, builtin.stderr).toBe(1);
			const huge = builtin.result('huge');
			expect(huge.status).toBe('refused');
			expect(builtin.argvOf(huge.id)).toBeUndefined();
			expect(mock.requests.filter(request => request.lastUser.startsWith(prompt('huge')))).toEqual([]);
			const started = readFileSync(path.join(builtin.report.run_dir, 'processes.jsonl'), 'utf8');
			expect(started).not.toContain(`"task":"${huge.id}"`);
		});

		it('SIGTERM to hermes-delegate during a slow reply and a `sleep` tool: cancelled, said plainly, nothing left running', async () => {
			const sleepArg = `300.${process.pid}${Date.now() % 1000}`;
			// The sleep itself, or a shell running it (not hermes, whose prompt names it too).
			const isSleeper = (argv: string[]) => argv.includes(sleepArg) || (/(^|\/)(ba|da)?sh$/.test(argv[0] ?? '') && argv.some(arg => arg.includes(`sleep ${sleepArg}`)));
			const tasks = write('cancel-tasks.json', JSON.stringify([
				{name: 'slow', goal: prompt('slow [mock:slow]'), option: 'fast'},
				{name: 'sleeper', goal: prompt(`sleeper [mock:tool=sleep ${sleepArg}]`), option: 'fast'},
			]));
			// A generous grace: Hermes ends its tools itself on SIGTERM, and a loaded machine is slow to.
			const child = spawn(process.execPath, delegateArgs(bin, tasks, modelMapConfig, ['--grace', '20']), {env: home.env, stdio: ['ignore', 'pipe', 'pipe']});
			onTestFinished(() => {
				child.kill('SIGKILL');
				for (const pid of livingProcesses(isSleeper)) process.kill(pid, 'SIGKILL');
			});
			let stdout = '';
			let stderr = '';
			child.stdout.setEncoding('utf8').on('data', (text: string) => {
				stdout += text;
			});
			child.stderr.setEncoding('utf8').on('data', (text: string) => {
				stderr += text;
			});
			// 'close': it has exited and its stdout and stderr have ended.
			const closed = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;

			await mock.waitForRequest(request => request.lastUser === prompt('slow [mock:slow]'), waitBudget);
			await waitFor(() => livingProcesses(isSleeper).length > 0, {timeoutMs: waitBudget, intervalMs: 200, message: `the tool's sleep ${sleepArg} to start`});
			child.kill('SIGTERM');
			const [code] = await closed;

			const run = parseRun(code ?? undefined, stdout, stderr);
			expect(run.exitCode, stderr).toBe(130);
			expect(run.report.interrupted).toBe(true);
			for (const name of ['slow', 'sleeper']) {
				const result = run.result(name);
				expect(result.status, name).toBe('cancelled');
				expect(result.error, name).toMatch(/SIGTERM/);
				expect(result.error, name).not.toMatch(/Traceback|KeyboardInterrupt/);
			}

			for (const pgid of recordedGroups(run.report.run_dir)) expect(listGroupMembers(pgid), `process group ${pgid}`).toEqual([]);
			expect(livingProcesses(argv => argv.some(arg => arg.includes(prompt('slow'))))).toEqual([]);
			expect(livingProcesses(isSleeper), `sleep ${sleepArg} outlived the cascade`).toEqual([]);
		}, budget);
	});
}

function recordedGroupsOf(home: HermesTestHome): number[] {
	const runs = path.join(home.dir, 'delegate', 'runs');
	return existsSync(runs) ? readdirSync(runs).flatMap(run => recordedGroups(path.join(runs, run))) : [];
}
