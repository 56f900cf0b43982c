// The dashboard's header has room for one warning: the one about what the running tasks do must
// come first, before warnings about the configuration file.
import {describe, expect, it} from 'vitest';
import {sharedProfileWarnings} from '../../src/core/plan/routing.js';
import type {PlannedTask} from '../../src/core/types.js';
import {batchWarnings} from '../../src/state/warnings.js';
import {plannedTask} from '../helpers/render.js';

function onProfile(index: number, profile: string): PlannedTask {
	const route = {kind: 'profile' as const, name: profile, description: `the ${profile} profile`};
	return {...plannedTask(index), decision: {route, refused: false, reason: `profile ${profile}`}};
}

describe('batchWarnings', () => {
	const fieldWarning = 'route "fast": base_url is not passed';
	const apiKeyWarning = 'config.yaml: route "fast" keeps its api_key in plain text';
	// Names a profile the way a shared-profile warning does, but is about the config file.
	const lookalike = 'characteristics table: "coding" names profile "coder", which is not a route';

	it('puts shared-profile warnings first, then the tasks\' own, then the rest, each once', () => {
		const tasks = [onProfile(0, 'coder'), onProfile(1, 'coder'), {...plannedTask(2), warnings: [fieldWarning]}, {...plannedTask(3), warnings: [fieldWarning]}];
		const [shared] = sharedProfileWarnings(tasks);
		expect(shared).toContain('profile "coder" is used by 2 tasks (t01, t02)');

		// The planner's order: configuration warnings before the shared profile.
		const warnings = batchWarnings({tasks, warnings: [apiKeyWarning, lookalike, shared!]});

		expect(warnings).toEqual([shared, fieldWarning, apiKeyWarning, lookalike]);
	});

	it('does not rank a warning first for mentioning a shared profile\'s name', () => {
		const tasks = [onProfile(0, 'coder'), onProfile(1, 'coder')];
		const [shared] = sharedProfileWarnings(tasks);

		expect(batchWarnings({tasks, warnings: [lookalike, shared!]})).toEqual([shared, lookalike]);
	});

	it('a refused task does not share its profile with anyone', () => {
		const refused = {...onProfile(1, 'coder'), decision: {...onProfile(1, 'coder').decision, refused: true}};

		expect(sharedProfileWarnings([onProfile(0, 'coder'), refused])).toEqual([]);
	});
});
