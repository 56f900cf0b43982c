// Messages that must say the right thing: a missing binary named before any warning that would
// speak of "the installed Hermes", and a --log-limit with a unit too small not told to add one.
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {makeHome, runCli, tasksJson} from '../helpers/run-cli.js';

const config = `delegation:
  backend: model_map
  backends:
    model_map:
      options:
        - {name: deep, description: careful, provider: anthropic, model: opus, reasoning_effort: high}
      default: deep
`;

function home() {
	const created = makeHome(config);
	onTestFinished(() => created.remove());
	return created;
}

describe('messages that name the right thing', () => {
	it('a missing --hermes-bin is said first, before route warnings about an unprobed Hermes', async () => {
		const test = home();
		const missing = path.join(test.dir, 'nope');
		const dry = await runCli(test, ['run', '--dry-run', tasksJson({goal: 'design'}), '--hermes-bin', missing], {noHermesBin: true});
		expect(dry.exitCode).toBe(0);
		const lines = dry.stderr.split('\n').filter(Boolean);
		expect(lines[0]).toContain('does not exist');
		expect(lines.filter(text => text.includes('does not exist'))).toHaveLength(1);

		const run = await runCli(test, ['run', tasksJson({goal: 'design'}), '--hermes-bin', missing], {noHermesBin: true});
		expect(run.exitCode).toBe(2);
		expect(run.stderr).not.toContain('installed Hermes');
		expect(run.stderr.split('\n')[0]).toContain('does not exist');
	});

	it('--log-limit 1KB is too small, and is not told to add a unit it has', async () => {
		const test = home();
		const result = await runCli(test, ['run', '--dry-run', '--log-limit', '1KB', tasksJson({goal: 'x'})]);
		expect(result.exitCode).toBe(2);
		expect(result.stderr).toContain('below the minimum of 64 KiB');
		expect(result.stderr).not.toContain('1KBMB');
		expect(result.stderr).not.toContain('add the unit');
		const bare = await runCli(test, ['run', '--dry-run', '--log-limit', '512', tasksJson({goal: 'x'})]);
		expect(bare.stderr).toContain('add the unit, e.g. "512MB"');
	});
});
