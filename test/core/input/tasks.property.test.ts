// Property-based: whatever a tasks file holds (random JSON or YAML, wrong types, huge numbers,
// empty strings, odd Unicode, NUL bytes, `../` names, very long names, many tasks), parseTasks
// either returns valid tasks or throws an InputError that names the file and the fix. Never
// another error, never a task that breaks the rules the runner relies on.
import fc from 'fast-check';
import {stringify} from 'yaml';
import {describe, expect, it} from 'vitest';
import {InputError, InputErrors} from '../../../src/core/errors.js';
import {maxOneLineLength, parseTasks, taskFields} from '../../../src/core/input/tasks.js';
import type {TaskSpec} from '../../../src/core/types.js';

const label = 'tasks.json';

/** Strings a hostile or careless file holds. */
const oddString = fc.oneof(
	fc.string(),
	fc.string({unit: 'grapheme'}),
	fc.string({unit: 'binary'}),
	fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '../../etc/passwd', '..', '/', '\u001B]52;c;eA==\u0007', '\u202Egnp.exe', '漢\u0301'.repeat(300), 'x'.repeat(maxOneLineLength + 1), '\uD800', '\uFEFF', '1e309', 'null', 'true', 'goal'),
);
const oddNumber = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 31, 2 ** 53 + 1, Number.MAX_VALUE, Number.MIN_VALUE, 0.5));
const oddValue: fc.Arbitrary<unknown> = fc.oneof(oddString, oddNumber, fc.boolean(), fc.constant(null), fc.array(oddString, {maxLength: 3}), fc.dictionary(oddString, oddString, {maxKeys: 2}));
const fieldName = fc.oneof(fc.constantFrom(...taskFields), oddString);
const taskLike = fc.dictionary(fieldName, oddValue, {maxKeys: 6});
const tasksLike = fc.array(fc.oneof({weight: 5, arbitrary: taskLike}, {weight: 1, arbitrary: oddValue}), {maxLength: 6});

/** The outcome of parsing: valid tasks, or the InputError's text. Anything else fails the property. */
function outcome(text: string): {tasks: TaskSpec[]} | {error: string} {
	try {
		return {tasks: parseTasks(text, {label})};
	} catch (error) {
		if (!(error instanceof InputError)) throw error;
		// Each problem of several carries its own fix.
		for (const problem of error instanceof InputErrors ? error.problems : [error]) {
			expect(problem.fix, problem.message).toBeTruthy();
			expect(problem.location.file).toBe(label);
		}

		return {error: error.describe()};
	}
}

function checkOutcome(text: string): void {
	const result = outcome(text);
	if ('error' in result) {
		expect(result.error).toContain(label);
		expect(result.error).toContain('fix: ');
		return;
	}

	expect(result.tasks.length).toBeGreaterThan(0);
	for (const task of result.tasks) {
		expect(task.goal.trim()).not.toBe('');
		for (const value of Object.values(task)) {
			if (typeof value === 'string') expect(value).not.toContain('\u0000');
		}

		for (const field of ['name', 'option', 'model', 'provider', 'profile', 'characteristic'] as const) {
			expect((task[field] ?? '').length).toBeLessThanOrEqual(maxOneLineLength);
		}

		if (task.timeout !== undefined) expect(task.timeout > 0 && Number.isFinite(task.timeout)).toBe(true);
	}
}

describe('parseTasks on arbitrary input', () => {
	it('any text: valid tasks or an InputError naming the file and the fix', () => {
		fc.assert(fc.property(oddString, checkOutcome), {numRuns: 400});
	});

	it('any JSON value', () => {
		fc.assert(fc.property(fc.jsonValue(), value => checkOutcome(JSON.stringify(value))), {numRuns: 300});
	});

	it('lists of task-like objects with wrong types, huge numbers, odd strings, as JSON', () => {
		fc.assert(fc.property(tasksLike, tasks => checkOutcome(JSON.stringify(tasks))), {numRuns: 400});
	});

	it('the same as YAML', () => {
		fc.assert(fc.property(tasksLike, tasks => checkOutcome(stringify(tasks))), {numRuns: 300});
	});

	it('YAML-ish text: flow and block syntax, anchors, tags, odd scalars', () => {
		const piece = fc.constantFrom('- ', 'goal: ', '{', '}', '[', ']', ',', ':', '&a ', '*a', '!!str ', '!!binary ', '? ', '|', '>', '\n', '  ', '"', '\'', '#', '---\n', '...\n', '%YAML 1.2\n', '~', '.inf', '0x1F', '1e400', '<<: *a', '\t', 'timeout: ', 'name: ../x');
		fc.assert(fc.property(fc.array(fc.oneof(piece, fc.string({maxLength: 4})), {maxLength: 30}), parts => checkOutcome(parts.join(''))), {numRuns: 500});
	});

	it('every problem names where it is: the task and the field', () => {
		fc.assert(fc.property(fc.array(taskLike, {minLength: 1, maxLength: 4}), tasks => {
			const result = outcome(JSON.stringify(tasks));
			if ('error' in result) expect(result.error).toMatch(/tasks\.json(:\d+)?: (\[\d+\]|no tasks|expected|task \d)/);
		}), {numRuns: 300});
	});

	it('many tasks are read, in order', () => {
		const many = Array.from({length: 5000}, (_, index) => ({goal: `Task ${index}`, name: `n${index}`}));
		const tasks = parseTasks(JSON.stringify(many), {label});
		expect(tasks).toHaveLength(5000);
		expect(tasks.at(-1)).toEqual({goal: 'Task 4999', name: 'n4999'});
	});
});
