// Steering a live batch in a real terminal: the routes editor adds a route field by field and
// removes another after y/n; it changes one description with the
// keyboard and saves it (the file differs in that line only), then `m` switches to profile
// routes and the queued panes show them; the running task keeps its route. The first task runs
// until the test writes its file ([fake:until-file]); every wait polls the screen.
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {changesPath} from '../../src/core/config/changes.js';
import {lineDiff} from '../../src/core/text/line-diff.js';
import type {BatchReport} from '../../src/core/types.js';
import {fakeAgentPath} from '../helpers/processes.js';
import {cliPath, makeHome, tasksJson, type TestHome} from '../helpers/run-cli.js';
import {rerouteT02ToSecondRoute, steeringConfig} from '../helpers/steering-config.js';
import {startTmux, type TmuxSession} from '../helpers/tmux.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const all = (...patterns: RegExp[]) => (screen: string) => patterns.every(pattern => pattern.test(screen));

type Tasks = Array<{goal: string; context?: string} & Record<string, unknown>>;

const defaultTasks = (release: string): Tasks => [
	{name: 'long-report', goal: 'Write the long report', context: `[fake:until-file=${release}]`},
	{name: 'log-summary', goal: 'Summaries of the build logs', context: '[fake:duration=0]'},
	{name: 'parser-bug', goal: 'Hard debugging of the parser', context: '[fake:duration=0]'},
];

function steered(tasksOf: (release: string) => Tasks = defaultTasks, concurrency = 1): {test: TestHome; screen: TmuxSession; go(): void} {
	const test = makeHome(steeringConfig);
	cleanups.push(() => test.remove());
	for (const profile of ['coder', 'writer']) mkdirSync(path.join(test.dir, 'profiles', profile), {recursive: true});
	const release = path.join(test.dir, 'go');
	const file = test.write('tasks.json', tasksJson(...tasksOf(release)));
	const screen = startTmux([process.execPath, cliPath, 'tui', file, '--hermes-bin', fakeAgentPath, '-j', String(concurrency)], {columns: 160, rows: 48, env: {HERMES_HOME: test.dir, TMPDIR: test.dir, XDG_CACHE_HOME: path.join(test.dir, '.cache')}});
	cleanups.push(() => screen.kill());
	return {test, screen, go: () => writeFileSync(release, '')};
}

describe('steering the batch from the dashboard', () => {
	it('adds a model route field by field, sets its reasoning effort, and removes another after y', async () => {
		const {test, screen, go} = steered();
		await screen.waitForScreen(/t01 long-report +● running/, {message: 't01 running'});
		screen.sendKeys('r');
		await screen.waitForScreen(/▸ fast \(default\)/, {message: 'the routes editor'});
		screen.sendKeys('a');
		await screen.waitForScreen(all(/model routes ✎/, /\+ new model route/, /name: /), {message: 'the new route\'s name field, marked in the header'});
		for (const [value, next] of [['mid', /description: /], ['Middle of the road.', /model: /], ['gpt-6-mini', /provider: /], ['openai', /▸ mid · gpt-6-mini · openai/]] as const) {
			screen.sendKeys(value);
			screen.sendKeys('Enter');
			await screen.waitForScreen(next, {message: `after ${value}`});
		}

		screen.sendKeys('E');
		await screen.waitForScreen(/reasoning_effort: /);
		screen.sendKeys('max');
		screen.sendKeys('Enter');
		await screen.waitForScreen(/▸ mid · gpt-6-mini · openai · reasoning max/, {message: 'the effort saved'});
		screen.sendKeys('Up');
		await screen.waitForScreen(/▸ deep/);
		screen.sendKeys('x');
		await screen.waitForScreen(/Remove route "deep" from config\.yaml\? Its 1 queued task moves to another route\./, {message: 'the question'});
		screen.sendKeys('y');
		await screen.waitForScreen(screen => /▸ mid/.test(screen) && !/deep · claude-opus-5/.test(screen), {message: 'deep removed, the selection on the route that took its place'});

		const config = readFileSync(path.join(test.dir, 'config.yaml'), 'utf8');
		expect(config).not.toContain('name: deep');
		expect(config).toMatch(/- name: mid\n {10}description: Middle of the road\.\n {10}model: gpt-6-mini\n {10}provider: openai\n {10}reasoning_effort: max\n/);
		expect(readFileSync(path.join(test.dir, 'config.yaml'), 'utf8')).toContain('# Hermes config, with comments that must survive');

		screen.sendKeys('Escape');
		go();
		await screen.waitForScreen(/t03 parser-bug +✓ succeeded/, {timeoutMs: 30_000, message: 'every task to succeed'});
		// Finished: nothing is left to stop, so q quits at once (no question).
		screen.sendKeys('q');
		expect((await screen.waitForExit()).code).toBe(0);
	});

	it('edits a description in the routes editor, then m moves the queued tasks to profile routes', async () => {
		const {test, screen, go} = steered();
		await screen.waitForScreen(all(/t01 long-report +● running/, /t02 log-summary +○ queued/, /t03 parser-bug +○ queued/), {message: 't01 running, the others queued'});

		screen.sendKeys('r');
		await screen.waitForScreen(/▸ fast \(default\)/, {message: 'the routes editor'});
		screen.sendKeys('Down');
		await screen.waitForScreen(/▸ deep/);
		screen.sendKeys('e');
		await screen.waitForScreen(/Enter saves · Esc cancels/);
		screen.sendKeys('C-w');
		screen.sendKeys('reviews.');
		await screen.waitForScreen(/hard debugging and design reviews\./);
		screen.sendKeys('Enter');
		await screen.waitForScreen(all(/e description · M model/, /Slow and careful: hard debugging and design reviews\./), {message: 'the saved description'});

		const config = readFileSync(path.join(test.dir, 'config.yaml'), 'utf8');
		expect(lineDiff(steeringConfig, config)).toEqual([{line: 13, removed: ['          description: "Slow and careful: hard debugging and design work."'], added: ['          description: "Slow and careful: hard debugging and design reviews."']}]);

		screen.sendKeys('Escape');
		await screen.waitForScreen(/t02 log-summary/);
		screen.sendKeys('m');
		await screen.waitForScreen(/Switch routing from model_map to profile_routes\? It is saved into config\.yaml, which Hermes itself reads too;\s+2 queued tasks\s+re-plan onto it\.\s+y\/n/, {message: 'the mode question'});
		// Asked, not done: the file is as the description's save left it.
		expect(readFileSync(path.join(test.dir, 'config.yaml'), 'utf8')).toBe(config);
		screen.sendKeys('y');
		const switched = await screen.waitForScreen(all(/profile routes/, /profile coder/), {message: 'profile routes on the queued panes'});
		expect(switched).toMatch(/mode profile_routes: saved to .*config\.yaml/);
		expect(switched.match(/profile coder/g)?.length).toBeGreaterThanOrEqual(2);
		expect(readFileSync(path.join(test.dir, 'config.yaml'), 'utf8')).toContain('backend: profile_routes   # the active mode');

		go();
		await screen.waitForScreen(all(/t01 long-report +✓ succeeded/, /t02 log-summary +✓ succeeded/, /t03 parser-bug +✓ succeeded/), {timeoutMs: 30_000, message: 'every task to succeed'});
		// Finished: nothing is left to stop, so q quits at once (no question).
		screen.sendKeys('q');
		const exit = await screen.waitForExit();
		expect(exit.code).toBe(0);
		const resultsFile = /^results: (.+results\.json)$/m.exec(exit.screen)?.[1];
		const report = JSON.parse(readFileSync(resultsFile!, 'utf8')) as BatchReport;
		expect(report.results.map(result => [result.id, result.route.name])).toEqual([['t01', 'fast'], ['t02', 'coder'], ['t03', 'coder']]);
		const changes = readFileSync(changesPath(report.run_dir), 'utf8').trim().split('\n').map(line => JSON.parse(line) as {path: string; new: unknown});
		expect(changes.map(change => [change.path, change.new])).toEqual([
			['delegation.backends.model_map.options[1].description', 'Slow and careful: hard debugging and design reviews.'],
			['delegation.backend', 'profile_routes'],
		]);
	});

	it('R sends a failed task to another route: it runs again as attempt 2, and the results keep both attempts', async () => {
		const {screen, go} = steered(release => [
			{name: 'long-report', goal: 'Write the long report', context: `[fake:until-file=${release}]`},
			{name: 'flaky-fix', goal: 'Fix the flaky test', context: '[fake:fail]'},
		], 2);
		await screen.waitForScreen(all(/t01 long-report +● running/, /t02 flaky-fix +✗ failed/), {message: 't01 running, t02 failed'});
		await rerouteT02ToSecondRoute(screen, 'flaky-fix');
		await screen.waitForScreen(all(/t02 queued on route "deep" as attempt 2/, /t02 flaky-fix +✗ failed exit 1 .*attempt 2/), {message: 'attempt 2 ran and failed again'});

		go();
		await screen.waitForScreen(/t01 long-report +✓ succeeded/, {timeoutMs: 30_000});
		// Finished: nothing is left to stop, so q quits at once (no question).
		screen.sendKeys('q');
		const exit = await screen.waitForExit();
		const resultsFile = /^results: (.+results\.json)$/m.exec(exit.screen)?.[1];
		const report = JSON.parse(readFileSync(resultsFile!, 'utf8')) as BatchReport;
		expect(report.results[1]).toMatchObject({attempt: 2, status: 'failed', route: {name: 'deep'}, log: expect.stringMatching(/logs\/t02\.2\.log$/)});
		expect(report.results[1]!.earlier_attempts?.map(earlier => [earlier.route.name, earlier.log?.endsWith('logs/t02.log')])).toEqual([['fast', true]]);
	});
});
