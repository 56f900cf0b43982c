// The batch's warnings in the order the operator must read them. The header has room for one, so
// the first must be the one that matters most: warnings about what the running tasks do (two
// tasks writing one profile's memory, route fields that cannot be passed) before warnings about
// the configuration file (a plain-text api_key).
import type {PlannedTask} from '../core/types.js';

export function batchWarnings(plan: {tasks: readonly PlannedTask[]; warnings: readonly string[]}): string[] {
	const shared = sharedProfiles(plan.tasks);
	const aboutSharedProfile = (warning: string) => shared.some(profile => warning.includes(`profile "${profile}"`));
	const taskWarnings = new Set(plan.tasks.flatMap(task => task.warnings));
	const all = [...new Set([...plan.warnings, ...taskWarnings])];
	const rank = (warning: string) => (aboutSharedProfile(warning) ? 0 : taskWarnings.has(warning) ? 1 : 2);
	// Array.sort is stable: within a rank, the planner's order stays.
	return all.sort((a, b) => rank(a) - rank(b));
}

/** Profiles that two or more tasks of the batch will run as. */
function sharedProfiles(tasks: readonly PlannedTask[]): string[] {
	const counts = new Map<string, number>();
	for (const task of tasks) {
		const route = task.decision.route;
		if (!task.decision.refused && route?.kind === 'profile') {
			counts.set(route.name, (counts.get(route.name) ?? 0) + 1);
		}
	}

	return [...counts].filter(([, count]) => count > 1).map(([profile]) => profile);
}
