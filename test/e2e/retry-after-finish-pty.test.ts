// R after the whole batch has finished, in a real terminal: the operator is still looking at the
// failed pane, presses R, picks another route, and the batch runs again (the header's "finished"
// goes away), then finishes again; results.json lists both attempts. Quitting while that retry
// runs stops it with the kill cascade and still writes the results; a signal after the finish
// ends the dashboard. The fast route's model is "down" (test/helpers/down-route.ts): a task fails
// there and runs on deep, until the test writes its file. Every wait polls the screen.
import {readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import type {BatchReport, RoutePlan} from '../../src/core/types.js';
import {agentWithModelDown} from '../helpers/down-route.js';
import {cliPath, makeHome, tasksJson} from '../helpers/run-cli.js';
import {rerouteT02ToSecondRoute, steeringConfig} from '../helpers/steering-config.js';
import {startTmux} from '../helpers/tmux.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const all = (...patterns: Array<RegExp | ((screen: string) => boolean)>) => (screen: string) => patterns.every(pattern => (typeof pattern === 'function' ? pattern(screen) : pattern.test(screen)));

/** t01 succeeds on deep at once; t02 fails on fast, and on deep runs until `go()`. */
function finishedWithAFailure() {
	const test = makeHome(steeringConfig);
	cleanups.push(() => test.remove());
	const release = path.join(test.dir, 'go');
	const file = test.write('tasks.json', tasksJson(
		{name: 'steady', goal: 'Check the release notes', context: '[fake:duration=0]', option: 'deep'},
		{name: 'flaky-fix', goal: 'Fix the flaky test', context: `[fake:until-file=${release}]`, option: 'fast'},
	));
	const hermes = agentWithModelDown(test.dir, 'google/gemini-3-flash-preview');
	const pidFile = path.join(test.dir, 'cli.pid');
	const screen = startTmux(['/bin/sh', '-c', 'echo $$ > "$0"; exec "$@"', pidFile, process.execPath, cliPath, 'tui', file, '--hermes-bin', hermes, '-j', '2'], {columns: 160, rows: 40, env: {HERMES_HOME: test.dir, TMPDIR: test.dir, XDG_CACHE_HOME: path.join(test.dir, '.cache')}});
	cleanups.push(() => screen.kill());
	return {screen, go: () => writeFileSync(release, ''), pid: () => Number(readFileSync(pidFile, 'utf8'))};
}

/** R on the focused-next pane (t02), then deep in the picker. */
async function rerouteT02ToDeep(screen: ReturnType<typeof finishedWithAFailure>['screen']): Promise<void> {
	await screen.waitForScreen(all(/finished after/, /t01 steady +✓ succeeded/, /t02 flaky-fix +✗ failed/), {message: 'the batch finished with t02 failed'});
	await rerouteT02ToSecondRoute(screen, 'flaky-fix');
	await screen.waitForScreen(all(/t02 queued on route "deep" as attempt 2/, /t02 flaky-fix +● running/, screen => !/finished after/.test(screen)), {message: 'the batch running again, t02 as attempt 2'});
}

function resultsOf(exitScreen: string): BatchReport {
	const file = /^results: (.+results\.json)$/m.exec(exitScreen)?.[1];
	expect(file, exitScreen).toBeDefined();
	return JSON.parse(readFileSync(file!, 'utf8')) as BatchReport;
}

describe('R after the batch finished', () => {
	it('runs the failed task again on the picked route; the batch finishes again and results.json lists both attempts', async () => {
		const {screen, go} = finishedWithAFailure();
		await rerouteT02ToDeep(screen);

		go();
		await screen.waitForScreen(all(/finished after/, /t02 flaky-fix +✓ succeeded.*attempt 2/), {timeoutMs: 30_000, message: 'attempt 2 succeeded, the batch finished again'});
		// Finished: nothing is left to stop, so q quits at once (no question).
		screen.sendKeys('q');
		const exit = await screen.waitForExit();

		expect(exit.code).toBe(0);
		expect(exit.screen).toMatch(/^2\/2 tasks succeeded$/m);
		const report = resultsOf(exit.screen);
		expect(report.results[1]).toMatchObject({status: 'succeeded', attempt: 2, route: {name: 'deep'}, log: expect.stringMatching(/logs\/t02\.2\.log$/)});
		expect(report.results[1]!.earlier_attempts?.map(earlier => [earlier.status, earlier.route.name, earlier.log?.endsWith('logs/t02.log')])).toEqual([['failed', 'fast', true]]);
		const plan = JSON.parse(readFileSync(path.join(report.run_dir, 'plan.json'), 'utf8')) as RoutePlan;
		expect(plan.tasks.map(task => task.decision.route?.name)).toEqual(['deep', 'deep']);
	});

	it('q while the retry runs asks, stops it with the cascade, and writes both attempts before exiting', async () => {
		const {screen} = finishedWithAFailure();
		await rerouteT02ToDeep(screen);

		screen.sendKeys('q');
		await screen.waitForScreen(/Quit\? Stops 1 running task: SIGTERM to each process group/, {message: 'the quit question'});
		screen.sendKeys('y');
		const exit = await screen.waitForExit({timeoutMs: 30_000});

		expect(exit.code).toBe(130);
		const report = resultsOf(exit.screen);
		expect(report.interrupted).toBe(true);
		expect(report.results[1]).toMatchObject({status: 'cancelled', attempt: 2, route: {name: 'deep'}, earlier_attempts: [{status: 'failed', route: {name: 'fast'}}]});
		expect(report.results[1]!.error).toMatch(/^cancelled because hermes-delegate was stopped: SIGTERM sent to its process group/);
	});

	it('a signal after the batch finished ends the dashboard and prints the results file', async () => {
		const {screen, pid} = finishedWithAFailure();
		await screen.waitForScreen(all(/finished after/, /t02 flaky-fix +✗ failed/), {message: 'the batch finished'});

		process.kill(pid(), 'SIGTERM');
		const exit = await screen.waitForExit();

		expect(exit.code).toBe(1);
		expect(resultsOf(exit.screen).results.map(result => result.status)).toEqual(['succeeded', 'failed']);
	});
});
