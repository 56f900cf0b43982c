// JSON Schemas for the files people write by hand — task files and delegate.yaml — made from the
// zod schemas the CLI itself validates them with (zod's toJSONSchema), so an editor's checking
// cannot drift from the CLI's. `npm run docs` writes them into schemas/ (shipped in the package);
// test/scripts/docs.test.ts fails when they are stale. What the JSON Schema cannot say (a
// provider needs a model, a budget names usd or tokens, no NUL in text) the CLI still checks.
import {z} from 'zod';
import {settingsSchema} from '../core/config/settings.js';
import {taskSchema} from '../core/input/tasks.js';

/** Shown by editors on hover; every property of both schemas has one (the test checks). */
const taskDescriptions: Record<string, string> = {
	goal: 'What the subagent should do: the prompt (plus "Context:" and the context when given).',
	context: 'Extra text appended to the prompt.',
	name: 'A label for the dashboard and the results.',
	characteristic: 'coding, research, quick, reasoning, creative (or your own): picks a route through delegate.yaml\'s characteristics; inferred from the goal when absent.',
	option: 'A model_map route name.',
	profile: 'A profile_routes profile name.',
	model: 'An explicit model that wins over any route.',
	provider: 'The explicit model\'s provider (needs "model").',
	timeout: 'Seconds this task may run before it is stopped with the kill cascade.',
	toolsets: 'Toolsets to enable (hermes chat -t): a list, or one comma-separated string.',
	skills: 'Skills to preload (hermes chat -s): a list, or one comma-separated string.',
	max_turns: 'Tool-calling iterations per turn (hermes chat --max-turns).',
	worktree: 'true: run in an isolated git worktree (hermes chat -w).',
};

const settingDescriptions: Record<string, string> = {
	concurrency: 'Tasks running at once: the default of -j (else Hermes\'s delegation.max_concurrent_children, else 3).',
	grace: 'Seconds between SIGTERM and SIGKILL when a task is stopped: the default of --grace.',
	characteristics: 'Characteristic → route name, e.g. {coding: deep, quick: fast}.',
	characteristic_words: 'Characteristic → the goal words that imply it (replaces that characteristic\'s built-in list).',
	theme: 'The dashboard\'s theme: dark, light, no-color, or a theme JSON file.',
	keys: 'Dashboard key remapping: command → keys, replacing its defaults (press ? in the dashboard for the commands).',
	mouse: 'false: the dashboard leaves the mouse to the terminal, as --no-mouse does (default true: a click focuses a task, a double click zooms it, the wheel scrolls; Shift+drag still selects text in most terminals).',
	log_limit: 'The most one task\'s log keeps: bytes, or a size like 256MB or 2GiB; 0 = no limit.',
	executor: 'Run the tasks on worker hosts through NATS, as --nats URL does.',
	concurrency_per_provider: 'Provider → the most tasks on it at once, e.g. {openrouter: 4}.',
	budgets: 'Route → its budget: {usd: 2} or {tokens: 500000} or both.',
	budget_action: 'What a reached budget does: stop (no further task of its scope starts) or cancel (its running tasks are cancelled too).',
	stuck_after: 'Seconds without output or tool activity before a running task is marked stuck.',
	mcp: 'The MCP server (hermes-delegate mcp): {max_tasks: N}, the most tasks one delegate call may start (default 100).',
};

type JsonSchema = Record<string, unknown> & {properties?: Record<string, Record<string, unknown>>};

function described(schema: JsonSchema, descriptions: Record<string, string>): JsonSchema {
	for (const [name, property] of Object.entries(schema.properties ?? {})) {
		const description = descriptions[name];
		if (description !== undefined) property['description'] = description;
	}

	return schema;
}

/** The schemas' files, by name: what schemas/ must hold. */
export function jsonSchemas(): Record<string, JsonSchema> {
	// io: 'input' describes what a file may hold (a comma-separated toolsets string included), not
	// what parsing makes of it; refinements cannot be said in JSON Schema and are left to the CLI.
	const options = {io: 'input', unrepresentable: 'any'} as const;
	const task = described(z.toJSONSchema(taskSchema, options) as JsonSchema, taskDescriptions);
	delete task['$schema'];
	const settings = described(z.toJSONSchema(settingsSchema, options) as JsonSchema, settingDescriptions);
	delete settings['$schema'];
	return {
		'tasks.schema.json': {
			$schema: 'https://json-schema.org/draft/2020-12/schema',
			title: 'hermes-delegate task file',
			description: 'A batch of tasks for hermes-delegate run and tui: a list, one object per task (docs/tasks.md).',
			type: 'array',
			minItems: 1,
			items: task,
		},
		'delegate.schema.json': {
			$schema: 'https://json-schema.org/draft/2020-12/schema',
			title: 'hermes-delegate settings ($HERMES_HOME/delegate.yaml)',
			description: 'hermes-delegate\'s own settings; command-line flags override them (docs/configuration.md).',
			...settings,
		},
	};
}
