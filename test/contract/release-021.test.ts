// The fake posing as Hermes 0.21.5 (what upstream's source shows for late September 2026, never run
// here: docs/hermes-releases.md), driven through the real runner: each 0.21 change that a
// batch meets, held to what hermes-delegate must make of it.
import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {planBatch} from '../../src/core/plan/routing.js';
import {createRunFolder} from '../../src/core/run-folder/folder.js';
import {BatchRunner} from '../../src/core/run/runner.js';
import {defaultSettings} from '../../src/core/config/settings.js';
import {probeHermes} from '../../src/core/hermes/probe.js';
import type {DelegationConfig, HermesCapabilities, TaskResult, TaskSpec} from '../../src/core/types.js';
import {fakeAgentPath, fakeCapabilities, fakeVersionEnv} from '../helpers/processes.js';
import {scratchAfterEach} from '../helpers/scratch.js';
import {waitFor} from '../helpers/wait-for.js';

const scratch = scratchAfterEach();
const builtin: DelegationConfig = {mode: 'default', modelMap: {options: []}, profileRoutes: {profiles: []}, builtin: {}, source: {path: '/nonexistent/config.yaml', exists: false}};
const v021 = fakeCapabilities('0.21.5');
const quietOnly: HermesCapabilities = {...v021, flags: {...v021.flags, streamJson: false, queryFile: false, runBudget: false}};

function runner(tasks: TaskSpec[], options: {home?: string; config?: string; capabilities?: HermesCapabilities; env?: NodeJS.ProcessEnv} = {}) {
	const home = options.home ?? scratch.folder('release-021-');
	if (options.config) writeFileSync(path.join(home, 'config.yaml'), options.config);
	const plan = planBatch({tasks, delegation: builtin, settings: defaultSettings});
	const batch = new BatchRunner(plan, {
		hermesBin: fakeAgentPath, capabilities: options.capabilities ?? v021, folder: createRunFolder(home), concurrency: 2, graceMs: 300,
		env: {...fakeVersionEnv('0.21.5'), HERMES_HOME: home, ...options.env}, followMs: 50,
	});
	batch.subscribe(event => scratch.track(event));
	return {home, batch};
}

const one = async (task: TaskSpec, options: Parameters<typeof runner>[1] = {}): Promise<TaskResult> => (await runner([task], options).batch.start()).results[0]!;

describe('Hermes 0.21.5 (the fake, from upstream\'s source)', () => {
	it('is probed as a release with --cli and stream-json, and a source install\'s build label still names the release', async () => {
		const caps = await probeHermes(fakeAgentPath, {env: fakeVersionEnv('0.21.5')});
		expect(caps).toMatchObject({version: '0.21.5', probed: true, flags: {cli: true, streamJson: true}});
		const built = await probeHermes(fakeAgentPath, {env: {...fakeVersionEnv('0.21.5'), FAKE_HERMES_VERSION_LABEL: '0.21.5+3160.g42d70d2.dirty'}});
		expect(built).toMatchObject({version: '0.21.5', versionLabel: '0.21.5+3160.g42d70d2.dirty', flags: {cli: true}});
		// No release at all in the label: nothing is guessed, the flags still come from the help.
		const unknown = await probeHermes(fakeAgentPath, {env: {...fakeVersionEnv('0.21.5'), FAKE_HERMES_VERSION_LABEL: 'git.42d70d2'}});
		expect(unknown).toMatchObject({version: null, versionLabel: 'git.42d70d2', probed: true, flags: {cli: true, streamJson: true}});
	});

	it('a TUI-configured home still answers: --cli is passed', async () => {
		const result = await one({goal: '[fake:duration=0] [fake:answer=Paris.]'}, {config: 'display:\n  interface: tui\n', env: {FAKE_HERMES_TUI_HANDOFF: '1'}});
		expect(result).toMatchObject({status: 'succeeded', answer: 'Paris.'});
	});

	it('warnings on stderr stay warnings: a config Hermes cannot read (a duplicate key) is said in the result, and the run is not failed for it', async () => {
		const result = await one({goal: '[fake:duration=0] [fake:answer=Paris.]'}, {config: 'display:\n  compact: true\n  compact: false\n'});
		expect(result).toMatchObject({status: 'succeeded', answer: 'Paris.'});
		expect(result.warnings).toEqual([expect.stringMatching(/^Hermes warned: Warning: .*config\.yaml could not be read/)]);
	});

	it('running out of --max-turns exits 1: failed, reason max_turns', async () => {
		const result = await one({goal: '[fake:duration=0] [fake:steps=3]', max_turns: 1}, {capabilities: quietOnly});
		expect(result).toMatchObject({status: 'failed', exit_code: 1, failure_reason: 'max_turns'});
		expect(result.error).toMatch(/--max-turns/);
	});

	it('a start refused at the home\'s session cap is classified, with Hermes\'s message', async () => {
		const home = scratch.folder('release-021-');
		// Another live session (this test's own process) holds the only slot.
		mkdirSync(path.join(home, 'runtime', 'fake-sessions'), {recursive: true});
		writeFileSync(path.join(home, 'runtime', 'fake-sessions', String(process.pid)), '');
		const result = await one({goal: '[fake:duration=0]'}, {home, config: 'gateway:\n  max_concurrent_sessions: 1\n'});
		expect(result).toMatchObject({status: 'failed', exit_code: 1, failure_reason: 'session_limit'});
		expect(result.error).toMatch(/active session limit \(1\/1\)/);
	});

	it('schema 30: the hidden message rows never reach a pane, the rest of the session does', async () => {
		const release = path.join(scratch.folder('release-021-flag-'), 'release');
		const {batch} = runner([{goal: 'look it up', context: `[fake:steps=1] [fake:until-file=${release}]`}], {capabilities: quietOnly});
		const done = batch.start();
		const shown = () => batch.output('t01')?.display.lines() ?? [];
		await waitFor(() => shown().some(line => line.startsWith('⚙ ')), {message: 'the tool call on the pane'});
		writeFileSync(release, '');
		const [result] = (await done).results as [TaskResult];
		expect(result.status).toBe('succeeded');
		expect(shown().join('\n')).not.toMatch(/HIDDEN SCAFFOLDING/);
		expect(result.spend).toMatchObject({api_calls: expect.any(Number)});
	});
});
