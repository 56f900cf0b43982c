// A task file and a config are as untrusted as a subagent's output: what the dashboard shows of
// them (title, goal, route, reason, error) reaches the terminal with no escape sequence in it.
import {describe, expect, it} from 'vitest';
import {finishedPatch, taskViewFromPlan} from '../../src/state/task-view.js';
import {plannedTask} from '../helpers/render.js';

const osc52 = '\u001B]52;c;Y2xpcGJvYXJk\u0007';
const hostile = (text: string) => `${text}${osc52}\u001B[2J\u202E`;

function assertTerminalSafe(value: unknown) {
	const text = JSON.stringify(value);
	expect(text).not.toMatch(/\\u001b|\\u0007|\u202E|\\u009b/i);
}

describe('taskViewFromPlan', () => {
	it('sanitises every text that comes from the task file or the config', () => {
		const route = {kind: 'model' as const, name: hostile('fast'), description: 'd', model: hostile('m'), provider: hostile('p')};
		const task = plannedTask(0, {
			spec: {goal: hostile('Goal'), name: hostile('name')},
			decision: {route, refused: true, reason: hostile('route "x" is not in the list')},
			effective: {model: hostile('m'), provider: hostile('p'), reasoning_effort: null, service_tier: null, profile: hostile('coder')},
		});
		const view = taskViewFromPlan(task);

		assertTerminalSafe(view);
		expect(view.title).toBe('name');
		expect(view.goal).toBe('Goal');
		expect(view.routeName).toBe('fast');
		expect(view.errorLine).toBe('route "x" is not in the list');
	});

	it('sanitises the error line of a failed task', () => {
		const result = {status: 'failed', exit_code: 1, signal: null, error: hostile('cannot start /opt/agent'), started_at: null, finished_at: null, session_id: null, tokens: null, model_used: null, tool_calls: []};
		const patch = finishedPatch(result as never, null, 5000);

		assertTerminalSafe(patch);
		expect(patch.errorLine).toBe('cannot start /opt/agent');
	});
});
