// Ink's cache bounds are applied only as Ink enters the bundle (scripts/ink-cache-bounds.mjs), as
// the build does for dist/. Ink's measureText returns the object it cached for a text, so whether
// a text is still cached shows without measuring the heap (that is `npm run bench:ink-cache`).
import {cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import path from 'node:path';
import type {RolldownPluginOption} from 'rolldown';
import {afterAll, describe, expect, it} from 'vitest';
import {bundledInk} from '../helpers/bundled-ink.js';
import {boundInkCaches, cacheLimit} from '../../scripts/ink-cache-bounds.mjs';

const installedInk = path.dirname(createRequire(import.meta.url).resolve('ink'));
const work = mkdtempSync(path.join(tmpdir(), 'hd-ink-bounds-'));
afterAll(() => {
	rmSync(work, {recursive: true, force: true});
});

type MeasureText = (text: string) => {width: number; height: number};

/** Ink's measureText from `inkBuild`, bundled as the build bundles it (with the given plugins). */
async function bundledMeasureText(name: string, inkBuild: string, plugins: RolldownPluginOption[]): Promise<MeasureText> {
	return bundledInk<MeasureText>(work, name, inkBuild, 'measure-text.js', 'measureText', plugins);
}

/** Whether `first` is still cached after `count` other distinct texts were measured. */
function stillCachedAfter(measureText: MeasureText, count: number): boolean {
	const cached = measureText('first line');
	for (let index = 0; index < count; index++) measureText(`line ${index}`);
	return measureText('first line') === cached;
}

describe('Ink bundled with the cache bounds', () => {
	it('forgets texts once its cache is full; Ink as published keeps every one', async () => {
		const bounded = await bundledMeasureText('bounded', installedInk, [boundInkCaches()]);
		const published = await bundledMeasureText('published', installedInk, []);

		expect(stillCachedAfter(bounded, cacheLimit + 1)).toBe(false);
		expect(stillCachedAfter(published, cacheLimit + 1)).toBe(true);
	});

	it('fails the build, naming the file, when Ink changed', async () => {
		const changedInk = path.join(work, 'node_modules', 'ink', 'build');
		// Ink's whole build (the edited files import others, components/Text.js from a folder of its own).
		cpSync(installedInk, changedInk, {recursive: true});
		writeFileSync(path.join(changedInk, 'measure-text.js'), readFileSync(path.join(installedInk, 'measure-text.js'), 'utf8').replace('cache.set(text, dimensions)', 'cache.set(text, {...dimensions})'));

		await expect(bundledMeasureText('changed', changedInk, [boundInkCaches()])).rejects.toThrow(/ink\/build\/measure-text\.js differs from the Ink the cache bounds were written for/);
	});
});
