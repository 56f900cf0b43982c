// Ink 6 caches every string it measures or wraps; scripts/patch-ink.mjs bounds those caches, in
// node_modules (`prepare`, for everything that runs src/) and in the Ink bundled into dist/ (the
// build). Without it a dashboard showing endless fresh output grows without limit.
import {readdirSync, readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import {describe, expect, it} from 'vitest';
import {detached} from '../../src/core/task-output.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const inkBuild = path.dirname(createRequire(import.meta.url).resolve('ink'));

function heapAfterGc(): number {
	gc();
	gc();
	return process.memoryUsage().heapUsed;
}

async function inkModule<T>(file: string): Promise<T> {
	const module = await import(pathToFileURL(path.join(inkBuild, file)).href) as {default: T};
	return module.default;
}

const distDir = fileURLToPath(new URL('../../dist/', import.meta.url));

describe('Ink text caches', () => {
	it('are bounded in the Ink bundled into dist/, which is what users run', () => {
		const bundled = readdirSync(distDir).filter(file => file.endsWith('.js')).map(file => readFileSync(path.join(distDir, file), 'utf8')).join('\n');
		// The bundler drops the marker comment and may print 4000 as 4e3; the bound itself stays.
		const limit = '(?:4000|4e3)';
		expect(bundled).toMatch(new RegExp(`if \\(cache(?:\\$\\d+)?\\.size >= ${limit}\\) cache(?:\\$\\d+)?\\.clear\\(\\)`));
		expect(bundled).toMatch(new RegExp(`if \\(\\+\\+cacheSize > ${limit}\\)`));
	});

	it('are patched in node_modules after install', () => {
		for (const file of ['measure-text.js', 'wrap-text.js']) {
			expect(readFileSync(path.join(inkBuild, file), 'utf8')).toContain('hermes-delegate: bounded cache');
		}
	});

	it('do not keep every distinct line ever drawn', async () => {
		const measureText = await inkModule<(text: string) => unknown>('measure-text.js');
		const wrapText = await inkModule<(text: string, width: number, wrap: string) => string>('wrap-text.js');
		const before = heapAfterGc();
		// 40,000 distinct 2 KB lines: 80 MB if every one stayed cached.
		for (let index = 0; index < 40_000; index++) {
			const line = `${String(index).padStart(8, '0')} ${'x'.repeat(2000)}`;
			measureText(line);
			wrapText(line, 80, 'truncate');
		}

		const grown = heapAfterGc() - before;
		expect(grown).toBeLessThan(40 * 1024 * 1024);
	});
});

describe('lines handed to the screen', () => {
	it('do not keep the block they were cut from alive', () => {
		const before = heapAfterGc();
		const kept: string[] = [];
		for (let index = 0; index < 200; index++) {
			// A fresh 1 MB block per line, as a flood delivers them; only a short line of each is kept.
			const block = `${String(index).padStart(6, '0')}${'y'.repeat(1024 * 1024)}`;
			kept.push(detached(block.slice(0, 40)));
		}

		const grown = heapAfterGc() - before;
		expect(kept).toHaveLength(200);
		expect(grown).toBeLessThan(20 * 1024 * 1024);
	});
});
