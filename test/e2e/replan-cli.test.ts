// A batch re-plans when its routing changes while it runs, and scripts see it: `run --jsonl`
// prints batch.replanned (compact, like batch.planned) when config.yaml's mode is changed by
// `hermes-delegate config set-mode` under it. The running task keeps its route; the queued
// one runs on the new one, and plan.json says so. Waits are for lines and files, never time.
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import type {BatchReport, RoutePlan} from '../../src/core/types.js';
import {collect} from '../helpers/processes.js';
import {makeHome, modelMapConfig, runCli, startCli, tasksJson, type TestHome} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/wait-for.js';

const withProfiles = `${modelMapConfig}    profile_routes:
      profiles:
        - name: coder
          description: "Writes and reviews code."
      default: coder
`;

const homes: TestHome[] = [];
afterEach(() => {
	for (const home of homes.splice(0)) home.remove();
});

describe('run --jsonl while the config changes', () => {
	it('prints batch.replanned with the queued task on its new route, and runs it there', async () => {
		const test = makeHome(withProfiles);
		homes.push(test);
		mkdirSync(path.join(test.dir, 'profiles', 'coder'), {recursive: true});
		const release = path.join(test.dir, 'release');
		const tasks = tasksJson({goal: 'first', context: `[fake:until-file=${release}]`}, {goal: 'second', context: '[fake:duration=0]'});
		const cli = startCli(test, ['run', tasks, '--jsonl', '-j', '1']);
		const stdout = collect(cli.stdout);
		collect(cli.stderr);
		await waitFor(() => stdout.text.includes('"task.started"'), {message: 't01 started'});

		expect((await runCli(test, ['config', 'set-mode', 'profile_routes'])).exitCode).toBe(0);
		await waitFor(() => stdout.text.includes('"batch.replanned"'), {message: 'batch.replanned on stdout', timeoutMs: 10_000});
		writeFileSync(release, '');
		const {exitCode} = await cli;

		expect(exitCode).toBe(0);
		const events = stdout.lines().map(line => JSON.parse(line) as {type: string} & Record<string, unknown>);
		const replanned = events.find(event => event.type === 'batch.replanned')!;
		expect(replanned).toEqual({type: 'batch.replanned', mode: 'profile_routes', warnings: [], at: expect.any(Number), tasks: [
			{id: 't02', goal: 'second', route: expect.objectContaining({name: 'coder', kind: 'profile', profile: 'coder', reason: 'default route of profile_routes'})},
		]});
		const report = events.at(-1)!['report'] as BatchReport;
		expect(report.results.map(result => result.route.name)).toEqual(['fast', 'coder']);
		expect(report.mode).toBe('profile_routes');
		const plan = JSON.parse(readFileSync(path.join(report.run_dir, 'plan.json'), 'utf8')) as RoutePlan;
		expect(plan.tasks.map(task => task.decision.route?.name)).toEqual(['fast', 'coder']);
	});
});
