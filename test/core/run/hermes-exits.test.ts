// Real fake-agent runs through the runner: what a TUI-configured home, HERMES_TUI=1, and each exit
// of Hermes's contract become in a task's result (docs/hermes-releases.md).
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {planBatch} from '../../../src/core/plan/routing.js';
import {createRunFolder} from '../../../src/core/run-folder/folder.js';
import {BatchRunner} from '../../../src/core/run/runner.js';
import {defaultSettings} from '../../../src/core/config/settings.js';
import type {DelegationConfig, HermesCapabilities, TaskResult} from '../../../src/core/types.js';
import {fakeAgentPath, fakeCapabilities, fakeVersionEnv} from '../../helpers/processes.js';
import {scratchAfterEach} from '../../helpers/scratch.js';

const scratch = scratchAfterEach();
const builtin: DelegationConfig = {mode: 'default', modelMap: {options: []}, profileRoutes: {profiles: []}, builtin: {}, source: {path: '/nonexistent/config.yaml', exists: false}};
const withCli: HermesCapabilities = {...fakeCapabilities(), flags: {...fakeCapabilities().flags, cli: true}};

async function runOne(goal: string, options: {capabilities?: HermesCapabilities; env?: NodeJS.ProcessEnv; config?: string; maxTurns?: number} = {}): Promise<TaskResult> {
	const home = scratch.folder('hermes-exits-');
	if (options.config) writeFileSync(path.join(home, 'config.yaml'), options.config);
	const plan = planBatch({tasks: [{goal, ...(options.maxTurns === undefined ? {} : {max_turns: options.maxTurns})}], delegation: builtin, settings: defaultSettings});
	const runner = new BatchRunner(plan, {
		hermesBin: fakeAgentPath,
		capabilities: options.capabilities ?? fakeCapabilities(),
		folder: createRunFolder(home),
		concurrency: 1,
		graceMs: 300,
		env: {...fakeVersionEnv(), HERMES_HOME: home, ...options.env},
	});
	runner.subscribe(event => scratch.track(event));
	return (await runner.start()).results[0]!;
}

const quick = '[fake:duration=0] [fake:answer=Paris.]';
const handoff = {FAKE_HERMES_TUI_HANDOFF: '1'};

describe('a home that asks for Hermes\'s TUI', () => {
	it('without --cli the run exits 0 having done nothing, and that is a failure that says why', async () => {
		const result = await runOne(quick, {config: 'display:\n  interface: tui\n', env: handoff});
		expect(result).toMatchObject({status: 'failed', success: false, exit_code: 0, failure_reason: 'no_answer', answer: '', result: ''});
		expect(result.error).toMatch(/handed the run to its TUI/);
	});

	it('with --cli, where Hermes lists it, the run answers', async () => {
		const result = await runOne(quick, {capabilities: withCli, config: 'display:\n  interface: tui\n', env: handoff});
		expect(result).toMatchObject({status: 'succeeded', answer: 'Paris.'});
	});

	it('HERMES_TUI=1 in our environment never reaches the child', async () => {
		const result = await runOne(quick, {env: {...handoff, HERMES_TUI: '1'}});
		expect(result).toMatchObject({status: 'succeeded', answer: 'Paris.'});
	});
});

describe('Hermes\'s exit codes', () => {
	it('75 is a quota wall, named in the result', async () => {
		const result = await runOne('[fake:duration=0] [fake:fail=HTTP 429: usage limit reached] [fake:exit=75]');
		expect(result).toMatchObject({status: 'failed', exit_code: 75, failure_reason: 'quota_wall'});
		expect(result.error).toMatch(/^quota wall \(exit 75\): .*HTTP 429: usage limit reached/);
	});

	it('130 is an interruption, 1 a plain error', async () => {
		expect(await runOne('[fake:duration=0] [fake:exit=130]')).toMatchObject({status: 'failed', failure_reason: 'interrupted'});
		expect(await runOne('[fake:duration=0] [fake:fail]')).toMatchObject({status: 'failed', exit_code: 1, failure_reason: 'error'});
	});

	it('an exit 0 with an empty -Q answer is no success', async () => {
		expect(await runOne('[fake:duration=0] [fake:answer=]')).toMatchObject({status: 'failed', exit_code: 0, failure_reason: 'no_answer'});
	});

	it('0.20.0 out of --max-turns exits 0: a success whose warnings say the answer is the summary', async () => {
		const result = await runOne('[fake:duration=0] [fake:steps=3]', {maxTurns: 1});
		expect(result).toMatchObject({status: 'succeeded', exit_code: 0});
		expect(result.warnings).toContainEqual(expect.stringMatching(/reached its --max-turns limit: the answer is the summary/));
	});
});
