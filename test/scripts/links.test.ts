// Every link in README.md, CONTRIBUTING.md, CHANGELOG.md and docs/ reaches a file of this
// repository and, with an #anchor, a heading in it (the README points into docs/, and a
// moved or renamed section must not leave a link to nowhere).
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach, describe, expect, it} from 'vitest';
import {anchorsOf, brokenLinks} from '../helpers/markdown-links.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

let scratch = '';
afterEach(() => {
	if (scratch !== '') rmSync(scratch, {recursive: true, force: true});
	scratch = '';
});

describe('documentation links', () => {
	it('every link in README.md, CONTRIBUTING.md, CHANGELOG.md and docs/ points somewhere', () => {
		expect(brokenLinks(repoRoot).map(link => `${link.file}:${link.line}: ${link.target}: ${link.why}`)).toEqual([]);
	});

	it('finds a link to a missing file, to a missing heading, and ignores links inside code', () => {
		scratch = mkdtempSync(path.join(tmpdir(), 'links-'));
		mkdirSync(path.join(scratch, 'docs'));
		writeFileSync(path.join(scratch, 'README.md'), '# Title\n\n[a](docs/gone.md) [b](docs/page.md#nowhere) [c](docs/page.md#the-page-run-it) [d](#title) [e](https://example.com/x)\n\n```\n[f](missing.md)\n```\n`[g](missing.md)`\n');
		writeFileSync(path.join(scratch, 'docs', 'page.md'), '# The page: `run` it\n');
		expect(brokenLinks(scratch).map(link => `${link.line} ${link.target} ${link.why}`)).toEqual([
			'3 docs/gone.md no such file',
			'3 docs/page.md#nowhere no heading with the anchor #nowhere',
		]);
	});

	it('makes anchors as GitHub does: punctuation dropped, repeats numbered', () => {
		expect([...anchorsOf('# A batch that outlives its terminal: `attach`, `ls`\n## Exit codes\n## Exit codes\n')]).toEqual([
			'a-batch-that-outlives-its-terminal-attach-ls',
			'exit-codes',
			'exit-codes-1',
		]);
	});
});
