// Task input at the edge: text (JSON array or YAML list) → validated TaskSpec[].
// Everything here is untrusted; a single bad task refuses the whole batch with exit 2.
import {z} from 'zod';
import {InputError, InputErrors} from '../errors.js';
import type {TaskSpec} from '../types.js';
import {formatPath, lineOf, readYamlText, type LocatedDocument} from '../text/yaml-locate.js';
import {describeIssue, describeValue, parseWorded} from '../text/zod-messages.js';

// Every text field can end up in a subagent's argv, and no argument can carry a NUL byte: refused
// here, with the others, rather than failing that one task at spawn time.
const noNul = 'contains a NUL character (\\u0000), which no command-line argument can carry';
const text = z.string().refine(value => !value.includes('\0'), noNul);
const nonEmpty = text.trim().min(1, 'must not be empty');
/**
 * Names, routes, models: shown on one line in the dashboard and in messages. Past this length they
 * are not names any more, and measuring their width on every frame stalls the dashboard.
 */
export const maxOneLineLength = 200;
const oneLineText = nonEmpty.max(maxOneLineLength);
// A model, provider, toolset or skill reaches Hermes as the argument after its flag (`-m VALUE`):
// Hermes's argparse reads a value starting with "-" as an option of its own and exits 2 (or takes
// "--" as nothing at all), so such a task would die at spawn. No real name starts with "-".
const startsLikeOption = 'starts with "-", which Hermes\'s argument parser would read as an option, not as this value';
const notOption = (value: string) => !value.startsWith('-');
const flagValue = oneLineText.refine(notOption, startsLikeOption);
// Toolsets and skills: a list of names, or one comma-separated string as `hermes chat -t` takes it.
const listItem = text.trim().max(maxOneLineLength).regex(/^[^,\s]+$/, 'must be a name without commas or spaces');
const nameList = z.union([z.array(listItem).min(1, 'must not be empty'), nonEmpty]).transform(value =>
	Array.isArray(value) ? value : value.split(',').map(item => item.trim()).filter(Boolean)).refine(items => items.every(notOption), startsLikeOption);

/** A task of a task file; also the source of schemas/tasks.schema.json (src/commands/schemas.ts). */
export const taskSchema = z.strictObject({
	goal: nonEmpty,
	context: text.optional(),
	name: oneLineText.optional(),
	characteristic: oneLineText.optional(),
	option: oneLineText.optional(),
	profile: oneLineText.optional(),
	model: flagValue.optional(),
	provider: flagValue.optional(),
	timeout: z.number().positive('must be a positive number of seconds').optional(),
	toolsets: nameList.optional(),
	skills: nameList.optional(),
	max_turns: z.number().int('must be a whole number').positive('must be a positive whole number').optional(),
	worktree: z.boolean().optional(),
}).refine(task => task.provider === undefined || task.model !== undefined, {
	message: 'is set without "model"; a provider only applies to an explicit model',
	path: ['provider'],
});

export const taskFields = ['goal', 'context', 'name', 'characteristic', 'option', 'profile', 'model', 'provider', 'timeout', 'toolsets', 'skills', 'max_turns', 'worktree'];

/** Where the task text came from, for messages: a path, `<stdin>` or `<inline>`. */
export type TaskSource = {label: string};

export function parseTasks(text: string, source: TaskSource): TaskSpec[] {
	if (text.trim() === '') {
		throw new InputError('no tasks: the input is empty', {file: source.label}, 'give a JSON array of tasks, e.g. [{"goal":"..."}]');
	}

	const {located, value: data} = withinFile(text, () => readYamlText(text, {
		file: source.label,
		format: 'JSON or YAML',
		fix: 'tasks are a JSON array (or YAML list) of objects with at least a "goal"',
	}));
	if (!Array.isArray(data)) {
		throw new InputError(
			`expected a list of tasks, got ${describeValue(data)}`,
			{file: source.label, line: lineOf(located, [])},
			'wrap the tasks in a JSON array: [{"goal":"..."}]',
		);
	}

	if (data.length === 0) {
		throw new InputError('no tasks: the list is empty', {file: source.label}, 'add at least one task with a "goal"');
	}

	const problems: InputError[] = [];
	const tasks: TaskSpec[] = [];
	for (const [index, item] of data.entries()) {
		if (typeof item !== 'object' || item === null || Array.isArray(item)) {
			problems.push(new InputError(
				`task ${taskLabel(index)} must be an object with a "goal", got ${describeValue(item)}`,
				{file: source.label, path: `[${index}]`, line: lineOf(located, [index])},
				'write each task as an object with at least a "goal", e.g. {"goal":"..."}',
			));
			continue;
		}

		const parsed = parseWorded(taskSchema, item);
		if (parsed.success) {
			tasks.push(withoutUndefined(parsed.data));
			continue;
		}

		for (const issue of parsed.error.issues) {
			problems.push(issueToError(issue, index, source, located));
		}
	}

	if (problems.length === 1) {
		throw problems[0]!;
	}

	if (problems.length > 1) {
		throw new InputErrors(problems);
	}

	return tasks;
}

/** A task as its results and the dashboard name it (core/plan/routing.ts taskId numbers them the same way): t01 is the first. */
function taskLabel(index: number): string {
	return `t${String(index + 1).padStart(2, '0')}`;
}

/**
 * An error the parser places past the last line (an unclosed quote or bracket runs to the end of
 * the file) names the last line, and says the problem runs to the end: "line 5" of a 4-line file
 * sent the operator looking for a line that is not there.
 */
function withinFile<T>(text: string, parse: () => T): T {
	try {
		return parse();
	} catch (error) {
		const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
		if (!(error instanceof InputError) || error.location.line === undefined || error.location.line <= lines) throw error;
		throw new InputError(`${error.message} (unclosed at the end of the file)`, {...error.location, line: Math.max(1, lines)}, error.fix);
	}
}

function issueToError(issue: z.core.$ZodIssue, index: number, source: TaskSource, located: LocatedDocument): InputError {
	const problem = describeIssue(issue, {known: {label: 'task fields are', fields: taskFields}});
	const path = [index, ...problem.path];
	const location = {file: source.label, path: formatPath(path), line: lineOf(located, path)};
	const field = issue.path.map(String).join('.');
	if (problem.kind === 'unknown') {
		return new InputError(`task ${taskLabel(index)}: ${problem.message}`, location, problem.fix);
	}

	const fix = issue.message === noNul
		? `remove the NUL character from "${field}"`
		: issue.message === startsLikeOption
			? `remove the leading "-" from "${field}": no Hermes model, provider, toolset or skill name starts with one`
		: issue.code === 'too_big' && issue.origin === 'string'
			? `shorten "${field}" to at most ${maxOneLineLength} characters; longer text belongs in "goal" or "context"`
			: problem.fix ?? fieldFixes[field] ?? `"${field}" is text: give it a value in quotes, or leave it out`;
	return new InputError(problem.kind === 'missing' ? `task ${taskLabel(index)}: ${problem.message}` : `task ${taskLabel(index)}: field "${field}" ${problem.message}`, location, fix);
}

const fieldFixes: Record<string, string> = {
	goal: 'every task needs a "goal": what the subagent should do',
	timeout: 'give "timeout" as a number of seconds, without quotes, e.g. "timeout": 600',
	provider: 'add the "model" this provider serves, or remove "provider"',
	toolsets: 'give toolsets as a list of names, e.g. "toolsets": ["web", "terminal"], or as one comma-separated string, e.g. "toolsets": "web,terminal"',
	skills: 'give skills as a list of names, e.g. "skills": ["github-pr"], or as one comma-separated string, e.g. "skills": "github-pr,docs"',
	max_turns: 'give "max_turns" as a whole number, e.g. "max_turns": 30',
	worktree: 'give "worktree" as true or false, without quotes',
};

function withoutUndefined<T extends Record<string, unknown>>(value: T): T {
	return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
