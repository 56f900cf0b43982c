// The licence notices shipped in dist/THIRD-PARTY-LICENSES.txt come from what the bundle holds:
// every package with code in it, once per version, with its licence text; none left out silently.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {thirdPartyLicenses} from '../../scripts/third-party-licenses.mjs';

let root = '';
afterEach(() => {
	rmSync(root, {recursive: true, force: true});
});

/** A package in a temp node_modules; returns the path of one of its modules. */
function installed(name: string, manifest: Record<string, unknown>, licence?: [string, string]): string {
	const dir = path.join(root, 'node_modules', name);
	mkdirSync(path.join(dir, 'lib'), {recursive: true});
	writeFileSync(path.join(dir, 'package.json'), JSON.stringify({name, ...manifest}));
	if (licence) writeFileSync(path.join(dir, licence[0]), licence[1]);
	return path.join(dir, 'lib', 'index.js');
}

function chunk(modules: Record<string, number>) {
	return {type: 'chunk', modules: Object.fromEntries(Object.entries(modules).map(([id, renderedLength]) => [id, {renderedLength}]))};
}

describe('the third-party licences file', () => {
	it('lists each bundled package once with its version, licence and licence text', () => {
		root = mkdtempSync(path.join(tmpdir(), 'hd-licences-'));
		const chalk = installed('chalk', {version: '5.6.2', license: 'MIT'}, ['license', 'MIT License\n\nCopyright (c) Sindre Sorhus']);
		const scoped = installed('@scope/thing', {version: '1.0.0', license: 'ISC'}, ['LICENSE.md', 'ISC License text']);
		const shaken = installed('unused', {version: '9.9.9', license: 'GPL-3.0'}, ['LICENSE', 'GPL text']);
		const text = thirdPartyLicenses([
			chunk({[chalk]: 120, '/work/src/cli.ts': 300, [`${shaken}`]: 0}),
			chunk({[scoped]: 50, [`${chalk}?commonjs-proxy`]: 10}),
			{type: 'asset'},
		]);

		expect(text).toContain('- @scope/thing@1.0.0 (ISC)\n- chalk@5.6.2 (MIT)\n\n');
		expect(text).toContain('chalk@5.6.2 — MIT');
		expect(text).toContain('Copyright (c) Sindre Sorhus');
		expect(text).toContain('ISC License text');
		// Tree-shaken away: none of its code ships, so neither does its notice.
		expect(text).not.toContain('unused');
		expect(text.match(/chalk@5\.6\.2 — MIT/g)).toHaveLength(1);
	});

	it('fails the build for a bundled package with no licence text, naming it', () => {
		root = mkdtempSync(path.join(tmpdir(), 'hd-licences-'));
		const bare = installed('no-notice', {version: '1.2.3', license: 'MIT'});

		expect(() => thirdPartyLicenses([chunk({[bare]: 10})])).toThrow(/no licence text or licence field for no-notice@1\.2\.3/);
	});
});
