// The files in examples/ stay true: each task file is planned by the built CLI
// with --dry-run against a configuration with the routes they name (fast, deep), with
// examples/delegate.yaml as its settings; nothing is refused and nothing starts.
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, it, onTestFinished} from 'vitest';
import {makeHome, runCli} from '../helpers/run-cli.js';

const examplesDir = fileURLToPath(new URL('../../examples/', import.meta.url));
const taskFiles = readdirSync(examplesDir).filter(name => /\.(ya?ml|json)$/.test(name) && name !== 'delegate.yaml');

type Plan = {tasks: Array<{id: string; route: {name: string | null; refused: boolean}; warnings?: string[]}>; warnings: string[]};

describe('examples/', () => {
	it('has task files in YAML and JSON', () => {
		expect(taskFiles.some(name => name.endsWith('.json'))).toBe(true);
		expect(taskFiles.filter(name => name.endsWith('.yaml')).length).toBeGreaterThanOrEqual(2);
	});

	it.each(taskFiles)('%s plans with --dry-run under examples/delegate.yaml, every task routed', async name => {
		const home = makeHome();
		onTestFinished(() => home.remove());
		home.write('delegate.yaml', readFileSync(path.join(examplesDir, 'delegate.yaml'), 'utf8'));
		const result = await runCli(home, ['run', path.join(examplesDir, name), '--dry-run', '--json']);
		expect(result.exitCode, result.stderr).toBe(0);
		const plan = JSON.parse(result.stdout) as Plan;
		expect(plan.tasks.length).toBeGreaterThan(0);
		expect(plan.tasks.filter(task => task.route.refused).map(task => task.id)).toEqual([]);
		expect(plan.warnings).toEqual([]);
		expect(home.agentRuns()).toEqual([]);
	});
});
