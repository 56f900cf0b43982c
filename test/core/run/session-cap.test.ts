// max_concurrent_sessions (Hermes's cap on the chat sessions open at once in one home): read as
// upstream's resolve_max_concurrent_sessions reads it, and kept by the runner, so a batch never
// starts a session Hermes would refuse. Real fake-agent runs: the fake refuses one over the cap.
import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {sessionCapOf, sessionCapReader} from '../../../src/core/hermes/session-cap.js';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder} from '../../../src/core/run-folder/folder.js';
import {BatchRunner} from '../../../src/core/run/runner.js';
import {defaultSettings} from '../../../src/core/config/settings.js';
import type {BatchEvent, DelegationConfig} from '../../../src/core/types.js';
import {fakeAgentPath, fakeCapabilities, fakeVersionEnv} from '../../helpers/processes.js';
import {scratchAfterEach} from '../../helpers/scratch.js';

const scratch = scratchAfterEach();

describe('sessionCapOf', () => {
	it.each([
		[{max_concurrent_sessions: 3}, 3],
		[{max_concurrent_sessions: ' 2 '}, 2],
		[{gateway: {max_concurrent_sessions: 4}}, 4],
		// The top-level key wins whenever it is there, even empty.
		[{max_concurrent_sessions: null, gateway: {max_concurrent_sessions: 4}}, undefined],
		[{max_concurrent_sessions: 0}, undefined],
		[{max_concurrent_sessions: true}, undefined],
		[{max_concurrent_sessions: 1.5}, undefined],
		[{max_concurrent_sessions: 'many'}, undefined],
		[{}, undefined],
	])('%j → %s', (config, cap) => {
		expect(sessionCapOf(config)).toBe(cap);
	});

	it('reads each home a batch uses: the root and each profile, with its own config', () => {
		const home = scratch.folder('session-cap-');
		writeFileSync(path.join(home, 'config.yaml'), 'max_concurrent_sessions: 2\n');
		mkdirSync(path.join(home, 'profiles', 'coder'), {recursive: true});
		writeFileSync(path.join(home, 'profiles', 'coder', 'config.yaml'), 'gateway:\n  max_concurrent_sessions: 1\n');
		mkdirSync(path.join(home, 'profiles', 'free'), {recursive: true});
		const capOf = sessionCapReader(home);
		expect(['default', 'coder', 'free', 'coder'].map(capOf)).toEqual([2, 1, undefined, 1]);
	});
});

describe('the runner keeps each home under its cap', () => {
	const builtin: DelegationConfig = {mode: 'default', modelMap: {options: []}, profileRoutes: {profiles: []}, builtin: {}, source: {path: '/nonexistent/config.yaml', exists: false}};

	async function run(capped: boolean) {
		const home = scratch.folder('session-cap-run-');
		writeFileSync(path.join(home, 'config.yaml'), 'max_concurrent_sessions: 1\n');
		const tasks = [{goal: 'one [fake:duration=0.4] [fake:answer=One.]'}, {goal: 'two [fake:duration=0.4] [fake:answer=Two.]'}];
		const plan = planBatch({tasks, delegation: builtin, settings: defaultSettings});
		const runner = new BatchRunner(plan, {
			hermesBin: fakeAgentPath, capabilities: fakeCapabilities('0.21.5'), folder: createRunFolder(home), concurrency: 2, graceMs: 300,
			env: {...fakeVersionEnv('0.21.5'), HERMES_HOME: home},
			...(capped ? {sessionCaps: sessionCapReader(home)} : {}),
		});
		const events: BatchEvent[] = [];
		runner.subscribe(event => {
			scratch.track(event);
			events.push(event);
		});
		return {report: await runner.start(), events};
	}

	it('with the cap read, the second task waits for the slot, saying why, and both answer', async () => {
		const {report, events} = await run(true);
		expect(report.results.map(result => result.status)).toEqual(['succeeded', 'succeeded']);
		expect(events).toContainEqual(expect.objectContaining({type: 'task.waiting', id: 't02', waitingFor: 'waiting for a free session slot in the Hermes home (1 of 1 running; max_concurrent_sessions in its config.yaml)'}));
	});

	it('without it Hermes refuses a start, and the refusal is classified', async () => {
		const {report} = await run(false);
		const refused = report.results.filter(result => result.failure_reason === 'session_limit');
		expect(refused.length).toBeGreaterThanOrEqual(1);
		expect(refused[0]!.error).toMatch(/active session limit/);
	});
});
