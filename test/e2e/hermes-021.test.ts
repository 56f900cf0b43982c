// `hermes-delegate run` against homes that Hermes 0.21 reads differently (docs/hermes-releases.md):
// a profile whose config.yaml Hermes would refuse is refused before anything starts, and a home's
// max_concurrent_sessions holds a batch back instead of failing its tasks.
import {afterEach, describe, expect, it} from 'vitest';
import type {BatchReport} from '../../src/core/types.js';
import {makeHome, runCli, tasksJson, type TestHome} from '../helpers/run-cli.js';

let home: TestHome;
afterEach(() => home.remove());

const profileRoutes = `model: {default: m1}
security: {allow_lazy_installs: false, tirith_enabled: false}
delegation:
  backend: profile_routes
  backends:
    profile_routes:
      profiles:
        - {name: coder, description: writes code}
      default: coder
`;

describe('run on homes Hermes 0.21 reads differently', () => {
	it('a profile config.yaml with a key written twice: refused with the file, line and fix, and no task starts', async () => {
		home = makeHome(profileRoutes);
		home.write('profiles/coder/config.yaml', 'model:\n  default: m2\n  default: m3\n');
		const result = await runCli(home, ['run', tasksJson({goal: 'fix it', context: '[fake:duration=0]'})], {env: {FAKE_HERMES_VERSION: '0.21.5'}});
		expect(result.exitCode).toBe(2);
		expect(result.stderr).toMatch(/profiles\/coder\/config\.yaml:3.*the key "default" is written twice in the same map/s);
		expect(result.stderr).toContain('keep one "default:" in that map');
		expect(home.agentRuns()).toEqual([]);
	});

	it('a home capped at one session: the tasks run one at a time there, and all answer', async () => {
		home = makeHome(`${profileRoutes}max_concurrent_sessions: 1\n`);
		home.write('profiles/coder/config.yaml', 'model: {default: m2}\nmax_concurrent_sessions: 1\n');
		const tasks = tasksJson({goal: 'one', context: '[fake:duration=0.3]'}, {goal: 'two', context: '[fake:duration=0.3]'}, {goal: 'three', context: '[fake:duration=0.3]'});
		const result = await runCli(home, ['run', tasks, '--concurrency', '3'], {env: {FAKE_HERMES_VERSION: '0.21.5'}});
		expect(result.exitCode, result.stderr).toBe(0);
		const report = JSON.parse(result.stdout) as BatchReport;
		expect(report.results.map(task => task.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
	});
});
