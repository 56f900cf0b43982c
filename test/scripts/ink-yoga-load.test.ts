// yoga-layout's loader as the build edits it (scripts/ink-yoga-load.mjs) starts Yoga without
// calling `fetch`, which would load Node's HTTP client to decode the WebAssembly it already holds;
// as published it calls `fetch` (the check that this test can fail). Both load a working Yoga.
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, afterEach, describe, expect, it, vi} from 'vitest';
import {patchYogaSource, yogaFile} from '../../scripts/ink-yoga-load.mjs';

// The package's entry is dist/src/index.js; the loader sits in dist/binaries.
const yogaDist = path.join(path.dirname(createRequire(import.meta.url).resolve('yoga-layout')), '..');
const published = readFileSync(path.join(yogaDist, 'binaries', yogaFile), 'utf8');
const work = mkdtempSync(path.join(tmpdir(), 'hd-yoga-load-'));
afterAll(() => {
	rmSync(work, {recursive: true, force: true});
});
afterEach(() => {
	vi.unstubAllGlobals();
});

type YogaModule = {_malloc?: unknown; ready?: unknown};

/** Starts the loader written in `source` with `fetch` spied on; what it loaded, and the spy. */
async function load(name: string, source: string): Promise<{yoga: YogaModule; fetch: ReturnType<typeof vi.fn>}> {
	const file = path.join(work, `${name}.mjs`);
	writeFileSync(file, source);
	// A fetch that fails: the published loader then falls back to the same decoding as the edit.
	const fetch = vi.fn(async () => {
		throw new Error('no network in this test');
	});
	vi.stubGlobal('fetch', fetch);
	const {default: loadYoga} = (await import(pathToFileURL(file).href)) as {default: () => Promise<YogaModule>};
	return {yoga: await loadYoga(), fetch};
}

describe('yoga-layout loaded without fetch', () => {
	it('the published loader calls fetch for its own data: URL', async () => {
		const {yoga, fetch} = await load('published', published);
		expect(fetch).toHaveBeenCalled();
		expect(typeof yoga._malloc).toBe('function');
	});

	it('the edited loader never calls fetch and loads the same Yoga', async () => {
		const edited = patchYogaSource(published);
		expect(edited).toBeDefined();
		const {yoga, fetch} = await load('edited', edited!);
		expect(fetch).not.toHaveBeenCalled();
		expect(typeof yoga._malloc).toBe('function');
	});

	it('a yoga-layout the edit was not written for is refused, not shipped unedited', () => {
		expect(patchYogaSource(published.replace('typeof fetch', 'typeof globalThis.fetch'))).toBeUndefined();
	});
});
