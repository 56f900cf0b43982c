// hermes-delegate runs on the Node versions its libraries support (write-file-atomic 7:
// ^20.17 || >=22.9); on any other it says so and stops before loading them.
import {execFileSync, spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {supportedNode, unsupportedNode} from '../src/node-support.js';
import {cliPath} from './helpers/run-cli.js';

describe('the supported Node versions', () => {
	it.for(['20.17.0', '20.19.5', '22.9.0', '22.12.0', '24.0.0', '25.1.0'])('accept %s', version => {
		expect(unsupportedNode(version)).toBeUndefined();
	});

	it.for(['18.20.4', '20.0.0', '20.16.0', '21.7.3', '22.8.0'])('refuse %s, naming the range and the fix', version => {
		expect(unsupportedNode(version)).toMatch(new RegExp(`needs Node \\^20\\.17\\.0 \\|\\| >=22\\.9\\.0, but this is Node ${version.replaceAll('.', '\\.')}\\.\\n  fix: `));
	});

	it('are the ones package.json declares in engines', () => {
		const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {engines: {node: string}};
		expect(manifest.engines.node).toBe(supportedNode);
	});
});

describe('the built CLI on an unsupported Node', () => {
	// process.versions.node as an old Node reports it, set before the CLI's first line runs.
	const asNode18 = `data:text/javascript,Object.defineProperty(process.versions, 'node', {value: '18.20.4'})`;

	it('says which Node it needs and exits 2 before loading anything else', () => {
		const run = spawnSync(process.execPath, ['--import', asNode18, cliPath, 'run', '--demo'], {encoding: 'utf8', env: {...process.env, HERMES_HOME: '/nonexistent/hermes-delegate-test'}});

		expect(run.stderr).toBe(`${unsupportedNode('18.20.4')}\n`);
		expect(run.stdout).toBe('');
		expect(run.status).toBe(2);
	});

	it('runs as usual on this Node (the control)', () => {
		expect(execFileSync(process.execPath, ['--import', 'data:text/javascript,', cliPath, '--version'], {encoding: 'utf8'}).trim()).toMatch(/^\d+\.\d+\.\d+( \(git [\da-f]+(\+changes)?\))?$/);
	});
});
