// The batch's warnings in the order the operator must read them. The header has room for one, so
// the first must be the one that matters most: warnings about what the running tasks do (two
// tasks writing one profile's memory, route fields that cannot be passed) before warnings about
// the configuration file (a plain-text api_key).
import {allWarnings, sharedProfiles} from '../core/routing.js';
import type {PlannedTask} from '../core/types.js';

export function batchWarnings(plan: {tasks: readonly PlannedTask[]; warnings: readonly string[]}): string[] {
	const shared = [...sharedProfiles(plan.tasks).keys()];
	const aboutSharedProfile = (warning: string) => shared.some(profile => warning.includes(`profile "${profile}"`));
	const taskWarnings = new Set(plan.tasks.flatMap(task => task.warnings));
	const rank = (warning: string) => (aboutSharedProfile(warning) ? 0 : taskWarnings.has(warning) ? 1 : 2);
	// Array.sort is stable: within a rank, the planner's order stays.
	return allWarnings(plan).sort((a, b) => rank(a) - rank(b));
}
