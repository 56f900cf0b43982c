// The fake's help is its own text, but what a program reading it learns must be what the real help
// of each release teaches: the same options with the same metavars, in the same order, the same
// usage synopsis (argparse prints it on every usage error), and the same flags for hermes-probe.
// And no sentence of the real help may be in it (the project holds only what we wrote).
import {describe, expect, it} from 'vitest';
import {parseChatHelp} from '../../src/core/hermes/probe.js';
import {runFakeAgent} from '../helpers/processes.js';
import {recordedHelp, recordingsMissing, recordedReleases, type RecordedRelease} from '../helpers/recorded-help.js';

const missing = recordingsMissing();

async function fakeHelp(version: RecordedRelease, args: string[]): Promise<string> {
	const run = await runFakeAgent(args, {env: {...process.env, FAKE_HERMES_VERSION: version}});
	expect(run.exitCode).toBe(0);
	return run.stdout;
}

/** The synopsis: everything before the first blank line. */
const usageBlock = (help: string) => help.split('\n\n')[0]!;

/** Each option line's spellings with their metavars (`-q QUERY`, `--query QUERY`), in help order. */
function options(help: string): string[] {
	const section = help.slice(help.indexOf('\noptions:\n'));
	return [...section.matchAll(/^ {2}(-\S.*?)(?: {2,}|$)/gm)].flatMap((match) => match[1]!.split(', '));
}

/** The prose: the description under the usage and every option's help, whitespace collapsed. */
function prose(help: string): string {
	const [, description = '', section = ''] = /^[\s\S]*?\n\n([\s\S]*?)\n\noptions:\n([\s\S]*)$/.exec(help) ?? [];
	const helps = section.split('\n').map((line) => line.replace(/^ {2}-\S.*?(?: {2,}|$)/, ''));
	return [description, ...helps].join(' ').replace(/\s+/g, ' ').trim();
}

describe.skipIf(missing !== undefined).each(recordedReleases)('the fake\'s help as %s, held against the recorded real one', (version) => {
	it('chat --help offers exactly the recorded options, metavars and order, under the same synopsis', async () => {
		const real = recordedHelp(version, 'chat-help');
		const fake = await fakeHelp(version, ['chat', '--help']);

		expect(options(real).length).toBeGreaterThan(20);
		expect(options(fake)).toEqual(options(real));
		expect(usageBlock(fake)).toBe(usageBlock(real));
	});

	it('hermes-probe learns the same flags from it as from the real help', async () => {
		const fake = await fakeHelp(version, ['chat', '--help']);

		expect(parseChatHelp(fake)).toEqual(parseChatHelp(recordedHelp(version, 'chat-help')));
	});

	it('the top-level synopsis is the recorded one', async () => {
		const fake = await fakeHelp(version, ['--help']);

		expect(usageBlock(fake)).toBe(usageBlock(recordedHelp(version, 'help')));
	});

	it('shares no run of six words with the real help\'s sentences', async () => {
		const real = prose(recordedHelp(version, 'chat-help')).split(' ');
		const fake = prose(await fakeHelp(version, ['chat', '--help']));
		// An enumeration (`none, minimal, low, …`: the reasoning levels) is a fact, not a sentence.
		const enumeration = (words: string[]) => words.slice(0, -1).every((word) => word.endsWith(','));

		expect(real.length).toBeGreaterThan(200);
		const runs = real.slice(0, -5).map((_, index) => real.slice(index, index + 6));
		const shared = runs.filter((words) => !enumeration(words)).map((words) => words.join(' ')).filter((words) => fake.includes(words));
		expect(shared).toEqual([]);
	});
});
