// The list layout (`L`): columns fitted to the rows, so the badge is never cut into the title,
// the route follows the titles instead of sitting ~100 columns away, and the model shows even
// at 80 columns.
import {cleanup} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {finishTask, plannedTask, render, startTask, t0} from '../helpers/render.js';

afterEach(cleanup);

const research = {kind: 'model' as const, name: 'research', description: 'Research', model: 'deepseek/deepseek-v4-pro', provider: 'openrouter', reasoning_effort: 'medium' as const};

/** Three tasks, the second on a long route, the first failed (on its second attempt unless told), in the list. */
async function list(columns: number, attempt = 2) {
	const tasks = [
		plannedTask(0, {spec: {name: 'capital-lookup'}}),
		plannedTask(1, {spec: {name: 'survey-vector-dbs'}, decision: {route: research}, effective: {model: research.model, provider: research.provider, reasoning_effort: 'medium'}}),
		plannedTask(2, {spec: {name: 'explain-design'}}),
	];
	const view = render({tasks, columns, rows: 24});
	view.store.setState({layout: 'list'});
	startTask(view.store, 't01', t0);
	finishTask(view.store, 't01', 'failed', {startedAt: t0, finishedAt: t0 + 3000, exitCode: 1});
	const t01 = view.store.getState().tasks['t01']!;
	view.store.setState({tasks: {...view.store.getState().tasks, t01: {...t01, attempt}}});
	await vi.waitFor(() => {
		expect(view.frame()).toMatch(/› t01 /);
	});
	const row = (id: string) => view.frame().split('\n').find(line => line.includes(` ${id} `) && !/[┃│]/.test(line)) ?? '';
	return {...view, row};
}

describe('list layout', () => {
	test('the whole badge, attempt included, then a gap, then the title', async () => {
		const {row} = await list(120);
		expect(row('t01')).toMatch(/✗ failed exit 1 · 3s · attempt 2 {2,}capital-lookup/);
	});

	test('the route starts right after the longest title, whole when it fits', async () => {
		const {row} = await list(120);
		expect(row('t02')).toMatch(/survey-vector-dbs {2}research \(openrouter, medium\) · deepseek\/deepseek-v4-pro/);
		expect(row('t01')).toMatch(/capital-lookup {5}fast \(openrouter\) · google\/gemini-3-flash-preview/);
	});

	test('at 80 columns every row still shows its model, on the brief route', async () => {
		const {row} = await list(80, 1);
		expect(row('t02')).toMatch(/survey-vect\S*… {2}research · deepseek\/deepseek-v4-pro/);
		expect(row('t03')).toMatch(/explain-design +fast · google\/gemini-3-flash-preview/);
		expect(row('t01')).toMatch(/✗ failed exit 1 · 3s {2,}capital-lookup/);
	});

	test('at 80 columns a badge too long for its column is cut, and a gap still parts it from the title', async () => {
		const {row} = await list(80);
		expect(row('t01')).toMatch(/✗ failed exit 1 · 3s[^…]*… {2}capital-/);
	});
});
