// A goal reaches Hermes whole, whatever it starts with, and a model, provider, toolset or skill that
// argparse would read as an option is refused at planning. The argv is checked
// against Python's own argparse (a parser shaped as `hermes [-p NAME] chat -q … -m … -t … -s …`),
// not against what we believe it does: it drops a value of exactly "--" in every form.
import {spawnSync} from 'node:child_process';
import {describe, expect, it} from 'vitest';
import {promptOf} from '../../../src/core/hermes/flags.js';
import {queryArgs} from '../../../src/core/hermes/launcher.js';
import {parseTasks} from '../../../src/core/input/tasks.js';

const hasPython = spawnSync('python3', ['--version']).status === 0;

const parser = `
import argparse, json, sys
top = argparse.ArgumentParser(prog='hermes')
top.add_argument('-p', '--profile')
sub = top.add_subparsers(dest='command')
chat = sub.add_parser('chat')
chat.add_argument('-q', '--query')
chat.add_argument('-Q', '--quiet', action='store_true')
chat.add_argument('-m', '--model')
chat.add_argument('-t', '--toolsets')
chat.add_argument('-s', '--skills', action='append')
args = top.parse_args(json.loads(sys.stdin.read()))
print(json.dumps(args.query))
`;

/** The query argparse hands Hermes for this argv, as Hermes uses it (stripped), or why it exited. */
function parsedQuery(argv: string[]): string {
	const result = spawnSync('python3', ['-c', parser], {input: JSON.stringify(argv), encoding: 'utf8'});
	if (result.status !== 0) return `exit ${result.status}: ${result.stderr.trim().split('\n').at(-1)}`;
	const query = JSON.parse(result.stdout) as unknown;
	return typeof query === 'string' ? query.trim() : `not text: ${JSON.stringify(query)}`;
}

describe.skipIf(!hasPython)('the goal in Hermes\'s argv, read by Python\'s argparse', () => {
	it.each(['--', '-', '-x', '--help me fix the build', '-q', '-m gpt', '- -', '-- and more', 'plain words', '---'])('reaches Hermes whole: %j', goal => {
		const prompt = promptOf({goal});
		expect(parsedQuery(['-p', 'default', 'chat', ...queryArgs(prompt), '-Q', '-m', 'some/model'])).toBe(prompt.trim());
	});
});

describe('a value argparse would read as an option', () => {
	it.each([
		['model', {model: '-x'}],
		['model', {model: '--'}],
		['provider', {model: 'm', provider: '--help'}],
		['toolsets', {toolsets: ['web', '-t']}],
		['toolsets', {toolsets: '--yolo,web'}],
		['skills', {skills: ['-s']}],
	])('is refused at planning: %s', (field, fields) => {
		const error = (() => {
			try {
				parseTasks(JSON.stringify([{goal: 'g', ...fields}]), {label: 'tasks.json'});
			} catch (caught) {
				return caught as Error & {describe(): string};
			}

			return undefined;
		})();
		expect(error?.describe()).toContain(`task t01: field "${field}" starts with "-", which Hermes's argument parser would read as an option, not as this value`);
		expect(error?.describe()).toContain(`fix: remove the leading "-" from "${field}"`);
	});
});
