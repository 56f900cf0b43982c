// Task input at the edge: text (JSON array or YAML list) → validated TaskSpec[].
// Everything here is untrusted; a single bad task refuses the whole batch with exit 2.
import {z} from 'zod';
import {InputError, InputErrors} from './errors.js';
import type {TaskSpec} from './types.js';
import {errorLine, formatPath, lineOf, parseLocated, toPlain} from './yaml-locate.js';

const nonEmpty = z.string().trim().min(1, 'must not be empty');

const taskSchema = z.strictObject({
	goal: nonEmpty,
	context: z.string().optional(),
	name: nonEmpty.optional(),
	characteristic: nonEmpty.optional(),
	option: nonEmpty.optional(),
	profile: nonEmpty.optional(),
	model: nonEmpty.optional(),
	provider: nonEmpty.optional(),
	timeout: z.number().positive('must be a positive number of seconds').optional(),
}).refine(task => task.provider === undefined || task.model !== undefined, {
	message: 'is set without "model"; a provider only applies to an explicit model',
	path: ['provider'],
});

export const taskFields = ['goal', 'context', 'name', 'characteristic', 'option', 'profile', 'model', 'provider', 'timeout'];

/** Where the task text came from, for messages: a path, `<stdin>` or `<inline>`. */
export type TaskSource = {label: string};

export function parseTasks(text: string, source: TaskSource): TaskSpec[] {
	if (text.trim() === '') {
		throw new InputError('no tasks: the input is empty', {file: source.label}, 'give a JSON array of tasks, e.g. [{"goal":"..."}]');
	}

	const located = parseLocated(text);
	const syntaxError = located.document.errors[0];
	if (syntaxError) {
		const line = errorLine(located, syntaxError);
		throw new InputError(
			`not valid JSON or YAML: ${firstLine(syntaxError.message)}`,
			{file: source.label, line},
			'tasks are a JSON array (or YAML list) of objects with at least a "goal"',
		);
	}

	const plain = toPlain(located);
	if ('problem' in plain) {
		throw new InputError(plain.problem, {file: source.label}, 'write the tasks out in full, without YAML anchors and aliases');
	}

	const data = plain.value;
	if (!Array.isArray(data)) {
		throw new InputError(
			`expected a list of tasks, got ${describeType(data)}`,
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
				`task ${index} must be an object with a "goal", got ${describeType(item)}`,
				{file: source.label, path: `[${index}]`, line: lineOf(located, [index])},
			));
			continue;
		}

		const parsed = taskSchema.safeParse(item, {reportInput: true});
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

function issueToError(issue: z.core.$ZodIssue, index: number, source: TaskSource, located: ReturnType<typeof parseLocated>): InputError {
	const path = [index, ...issue.path];
	const location = {file: source.label, path: formatPath(path), line: lineOf(located, path)};
	if (issue.code === 'unrecognized_keys') {
		const keys = issue.keys.join(', ');
		return new InputError(
			`task ${index}: unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}`,
			{...location, line: lineOf(located, [index, issue.keys[0]!])},
			`task fields are: ${taskFields.join(', ')}`,
		);
	}

	const field = issue.path.map(String).join('.');
	if (issue.code === 'invalid_type' && issue.input === undefined) {
		return new InputError(`task ${index}: missing required field "${field}"`, location, 'every task needs a "goal": what the subagent should do');
	}

	const message = issue.code === 'invalid_type' ? `expected ${issue.expected}, got ${describeType(issue.input)}` : issue.message;
	return new InputError(`task ${index}: field "${field}" ${message}`, location);
}

function describeType(value: unknown): string {
	if (value === null) {
		return 'null';
	}

	if (Array.isArray(value)) {
		return 'a list';
	}

	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function firstLine(text: string): string {
	return text.split('\n')[0] ?? text;
}

function withoutUndefined<T extends Record<string, unknown>>(value: T): T {
	return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
