// Commander's options are checked against each command's schema at the edge: a flag added or
// renamed in cli.ts and not in commands/flags.ts fails loudly instead of arriving as undefined.
import {describe, expect, it} from 'vitest';
import {optionsOf, routeEditOptions, runOptions} from '../../src/commands/flags.js';

describe('optionsOf', () => {
	it('passes through the flags the command knows', () => {
		expect(optionsOf(runOptions, {dryRun: true, concurrency: '4'}, 'run')).toEqual({dryRun: true, concurrency: '4'});
		expect(optionsOf(routeEditOptions, {clear: ['provider'], in: 'model_map'}, 'config route')).toEqual({clear: ['provider'], in: 'model_map'});
	});

	it('names the command and the flag when commander hands over one the schema does not know', () => {
		expect(() => optionsOf(runOptions, {dryRun: true, concurency: '4'}, 'run')).toThrow(/`run`.*\n?.*concurency/s);
	});

	it('refuses a flag of the wrong kind (a value where a switch was declared)', () => {
		expect(() => optionsOf(runOptions, {dryRun: 'yes'}, 'run')).toThrow(/`run`.*dryRun/s);
	});
});
