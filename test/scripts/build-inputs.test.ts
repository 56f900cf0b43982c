// `npm run demo`/`npm test` rebuild dist/ only when what it is built from changed: the hash must
// change with any input's content and only then (a fresh clone touches every file's time).
import {mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {buildInputsHash} from '../../scripts/build-inputs.mjs';

let root = '';
afterEach(() => {
	rmSync(root, {recursive: true, force: true});
});

function write(file: string, text: string): void {
	const full = path.join(root, file);
	mkdirSync(path.dirname(full), {recursive: true});
	writeFileSync(full, text);
}

function project(): void {
	root = mkdtempSync(path.join(tmpdir(), 'hd-build-inputs-'));
	write('src/cli.ts', 'export {};\n');
	write('src/core/tasks.ts', 'export const tasks = 1;\n');
	write('scripts/build.mjs', '// build\n');
	write('package.json', '{"name": "x"}\n');
	write('package-lock.json', '{}\n');
	write('tsconfig.json', '{}\n');
	write('README.md', 'not an input\n');
}

describe('the build inputs hash', () => {
	it('stays the same when only modification times or non-inputs change', () => {
		project();
		const before = buildInputsHash(root);
		utimesSync(path.join(root, 'src/cli.ts'), new Date(0), new Date(0));
		write('README.md', 'edited\n');
		write('test/x.test.ts', 'tests are not built into dist/\n');

		expect(buildInputsHash(root)).toBe(before);
	});

	it.for([
		['a source edited', () => write('src/core/tasks.ts', 'export const tasks = 2;\n')],
		['a source added', () => write('src/core/new.ts', 'export {};\n')],
		['a script edited', () => write('scripts/build.mjs', '// build, changed\n')],
		['the lockfile changed (npm install)', () => write('package-lock.json', '{"lockfileVersion": 3}\n')],
		['a tsconfig added', () => write('tsconfig.build.json', '{}\n')],
		['a file renamed', () => {
			rmSync(path.join(root, 'src/cli.ts'));
			write('src/main.ts', 'export {};\n');
		}],
	] as const)('changes when %s', ([, change]) => {
		project();
		const before = buildInputsHash(root);
		change();

		expect(buildInputsHash(root)).not.toBe(before);
	});
});
