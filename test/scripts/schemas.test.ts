// schemas/*.schema.json say what the CLI accepts: every example validates against
// its schema, the mistakes the CLI refuses (a misspelt field, a missing goal, a wrong type) are
// refused by the schema too, and editors get a description of every field.
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {Ajv2020} from 'ajv/dist/2020.js';
import {describe, expect, it} from 'vitest';
import {parse} from 'yaml';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const schema = (name: string) => JSON.parse(readFileSync(path.join(repoRoot, 'schemas', name), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({allErrors: true, strict: false});
const tasks = ajv.compile(schema('tasks.schema.json'));
const settings = ajv.compile(schema('delegate.schema.json'));
const example = (name: string): unknown => parse(readFileSync(path.join(repoRoot, 'examples', name), 'utf8'));

describe('the JSON Schemas', () => {
	it('accept every example', () => {
		for (const name of readdirSync(path.join(repoRoot, 'examples')).filter(file => /\.(ya?ml|json)$/.test(file))) {
			const validate = name === 'delegate.yaml' ? settings : tasks;
			expect(validate(example(name)), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
		}
	});

	it('refuse what the CLI refuses in a task file', () => {
		expect(tasks([{goal: 'x', optoin: 'fast'}])).toBe(false);
		expect(tasks([{name: 'no goal'}])).toBe(false);
		expect(tasks([{goal: 'x', timeout: '600'}])).toBe(false);
		expect(tasks([])).toBe(false);
		expect(tasks({goal: 'not a list'})).toBe(false);
		expect(tasks([{goal: 'x', toolsets: 'terminal,file'}, {goal: 'y', toolsets: ['terminal']}])).toBe(true);
	});

	it('refuse what the CLI refuses in delegate.yaml', () => {
		expect(settings({concurrancy: 4})).toBe(false);
		expect(settings({budget_action: 'explode'})).toBe(false);
		expect(settings({concurrency: 0})).toBe(false);
		expect(settings({executor: {nats: 'nats://h:4222', worker_wait: 60}})).toBe(true);
	});

	it('describe every field, for an editor\'s hover', () => {
		const items = schema('tasks.schema.json')['items'] as {properties: Record<string, {description?: string}>};
		const top = schema('delegate.schema.json') as {properties: Record<string, {description?: string}>};
		const undescribed = [...Object.entries(items.properties), ...Object.entries(top.properties)].filter(([, property]) => !property.description).map(([name]) => name);
		expect(undescribed).toEqual([]);
	});
});
