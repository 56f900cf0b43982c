// A re-route (R) is the operator's choice, not a task-file field: after R to "deep", a mode switch
// (m) or the removal of "deep" (x) re-plans the task from its task file, and never refuses it
// for a `task.option` the task file did not have. While the choice holds, re-planning keeps it.
import {describe, expect, it} from 'vitest';
import {planRetry, replanBatch} from '../../../src/core/plan/replan.js';
import {planBatch} from '../../../src/core/plan/routing.js';
import {defaultSettings} from '../../../src/core/config/settings.js';
import type {DelegationConfig, PlannedTask, RoutePlan, TaskSpec} from '../../../src/core/types.js';
import {fakeCapabilities} from '../../helpers/processes.js';
import {twoModelRoutes} from '../../helpers/two-model-routes.js';

const modelMap: DelegationConfig = {...twoModelRoutes, profileRoutes: {profiles: [{kind: 'profile', name: 'coder', description: 'Writes and reviews code.'}], default: 'coder'}};
const profileRoutes: DelegationConfig = {...modelMap, mode: 'profile_routes'};
const withoutDeep: DelegationConfig = {...modelMap, modelMap: {...modelMap.modelMap, options: modelMap.modelMap.options.filter(route => route.name !== 'deep')}};

const capabilities = fakeCapabilities();
const tasks: TaskSpec[] = [{goal: 'Summarise the notes'}, {goal: 'Look up the capital'}];

/** The batch planned on model_map, then t01 failed and the operator re-routed it to `target`. */
function reroutedPlan(target: string | {model: string}): {plan: RoutePlan; task: PlannedTask} {
	const plan = planBatch({tasks, delegation: modelMap, settings: defaultSettings, capabilities});
	const retry = planRetry({plan, task: plan.tasks[0]!, status: 'failed', attempt: 1, delegation: modelMap, target, settings: defaultSettings, capabilities});
	if (!retry.ok) throw new Error(retry.reason);
	return {plan: {...plan, tasks: plan.tasks.map(task => (task.id === retry.task.id ? retry.task : task))}, task: retry.task};
}

function replanOn(plan: RoutePlan, delegation: DelegationConfig) {
	return replanBatch({current: plan, delegation, settings: defaultSettings, capabilities, outsideWarnings: [], status: () => 'queued', unstarted: () => true});
}

describe('a re-route is the operator\'s choice', () => {
	it('R to deep keeps the task file as it is and says who chose the route', () => {
		const {task} = reroutedPlan('deep');
		expect(task.spec).toEqual(tasks[0]);
		expect(task.decision).toMatchObject({refused: false, route: {name: 'deep'}, reason: 're-routed to "deep" by the operator (attempt 2)'});
	});

	it('R to deep, then a switch to profile routes: the task file decides, nothing refused', () => {
		const {plan} = reroutedPlan('deep');
		const next = replanOn(plan, profileRoutes);
		const t01 = next.plan.tasks[0]!;
		expect(t01.decision.refused).toBe(false);
		expect(t01.decision.route?.name).toBe('coder');
		expect(t01.decision.reason).not.toContain('task.option');
		expect(t01.decision.reason).toContain('the operator\'s re-route to "deep" is not a route of profile_routes');
	});

	it('R to deep, then deep removed: the task moves to the route its task file gives it', () => {
		const {plan} = reroutedPlan('deep');
		const t01 = replanOn(plan, withoutDeep).plan.tasks[0]!;
		expect(t01.decision).toMatchObject({refused: false, route: {name: 'fast'}});
	});

	it('R to deep, then back to model_map with deep: the operator\'s choice holds again, unchanged', () => {
		const {plan} = reroutedPlan('deep');
		const away = replanOn(plan, profileRoutes).plan;
		const back = replanOn(away, modelMap);
		expect(back.plan.tasks[0]!.decision).toMatchObject({route: {name: 'deep'}, reason: 're-routed to "deep" by the operator (attempt 2)'});
		// A re-plan that changes nothing for the re-routed task does not announce it.
		expect(replanOn(plan, modelMap).changed.map(task => task.id)).toEqual([]);
	});

	it('an explicit model holds in any mode, and its reason names no task-file field', () => {
		const {plan, task} = reroutedPlan({model: 'qwen3'});
		expect(task.decision.reason).toBe('explicit model qwen3, set by the operator (attempt 2)');
		expect(task.spec.model).toBeUndefined();
		const t01 = replanOn(plan, profileRoutes).plan.tasks[0]!;
		expect(t01.effective.model).toBe('qwen3');
		expect(t01.decision.refused).toBe(false);
	});

	it('a route the active mode does not have is refused as the operator\'s, not as task.option', () => {
		const plan = planBatch({tasks, delegation: modelMap, settings: defaultSettings, capabilities});
		const retry = planRetry({plan, task: plan.tasks[0]!, status: 'failed', attempt: 1, delegation: modelMap, target: 'turbo', settings: defaultSettings, capabilities});
		expect(retry).toEqual({ok: false, reason: 'route "turbo" is not in model_map (routes: fast, deep)'});
	});
});
