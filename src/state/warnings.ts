// The batch's warnings in the order the operator must read them. The header has room for one, so
// the first must be the one that matters most: warnings about what the running tasks do (two
// tasks writing one profile's memory, route fields that cannot be passed) before warnings about
// the configuration file (a plain-text api_key).
import {allWarnings, sharedProfileWarnings} from '../core/plan/routing.js';
import type {PlannedTask} from '../core/types.js';
import {terminalSafe} from '../core/output/visible-text.js';

export function batchWarnings(plan: {tasks: readonly PlannedTask[]; warnings: readonly string[]}): string[] {
	// The same strings the planner made, recognised whole, never by matching words in their text.
	const sharedProfile = new Set(sharedProfileWarnings(plan.tasks));
	const taskWarnings = new Set(plan.tasks.flatMap(task => task.warnings));
	const rank = (warning: string) => (sharedProfile.has(warning) ? 0 : taskWarnings.has(warning) ? 1 : 2);
	// Array.sort is stable: within a rank, the planner's order stays. They quote task files and
	// configs, so they reach the screen sanitised.
	return allWarnings(plan).sort((a, b) => rank(a) - rank(b)).map(warning => terminalSafe(warning));
}
