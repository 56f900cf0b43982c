// docs/commands/ is what `npm run docs` writes from the built CLI's own definitions:
// a command, option or help text changed in src/cli.ts without running it again fails here.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {readReference, readSchemas, renderPages, renderSchemas, schemasDir, stalePages} from '../../scripts/docs.mjs';

let scratch = '';
afterEach(() => {
	if (scratch !== '') rmSync(scratch, {recursive: true, force: true});
	scratch = '';
});

describe('the command reference pages', () => {
	const pages = renderPages(readReference()) as Map<string, string>;

	it('docs/commands/ is what `npm run docs` writes now (fix: npm run docs)', () => {
		expect(stalePages(pages)).toEqual([]);
	});

	it('schemas/ holds the JSON Schemas `npm run docs` makes now (fix: npm run docs)', () => {
		const schemas = renderSchemas(readSchemas()) as Map<string, string>;
		expect([...schemas.keys()].sort()).toEqual(['delegate.schema.json', 'tasks.schema.json']);
		expect(stalePages(schemas, schemasDir, '.json')).toEqual([]);
	});

	it('has a page for every visible command and subcommand, each with its --help', () => {
		expect([...pages.keys()]).toEqual(expect.arrayContaining(['README.md', 'run.md', 'tui.md', 'demo.md', 'config.md', 'config-route.md']));
		expect(pages.get('run.md')).toContain('Usage: hermes-delegate run [options] [tasks]');
		expect([...pages.keys()].some(name => name.startsWith('__'))).toBe(false);
	});

	it('calls a changed, a missing and a left-over page stale', () => {
		scratch = mkdtempSync(path.join(tmpdir(), 'docs-'));
		for (const [name, text] of pages) writeFileSync(path.join(scratch, name), text);
		expect(stalePages(pages, scratch)).toEqual([]);
		writeFileSync(path.join(scratch, 'run.md'), `${pages.get('run.md')!}edited\n`);
		rmSync(path.join(scratch, 'tui.md'));
		writeFileSync(path.join(scratch, 'gone.md'), 'a command that was removed\n');
		expect(stalePages(pages, scratch)).toEqual(['run.md', 'tui.md (missing)', 'gone.md (no such command any more)']);
	});
});
