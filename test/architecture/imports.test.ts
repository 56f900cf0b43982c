// The folder rules hold for src/ as it is: no import circle (type-only imports count), no import
// a folder's row forbids, no React/Ink/zustand under core/ and no React/Ink under state/.
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {violations} from './import-rules.js';

const srcDir = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * Broken rules src/ has today, each with why it is not fixed yet. Printed on every run; a listed
 * one that no longer occurs fails the test, so the list can only shrink.
 */
const knownExceptions: ReadonlyMap<string, string> = new Map([
]);

function sourcesOf(dir: string): Map<string, string> {
	const sources = new Map<string, string>();
	for (const entry of readdirSync(dir, {recursive: true, withFileTypes: true})) {
		if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
		const file = path.join(entry.parentPath, entry.name);
		sources.set(path.relative(dir, file).split(path.sep).join('/'), readFileSync(file, 'utf8'));
	}
	return sources;
}

describe('the folder rules of src/', () => {
	it('hold for every file', () => {
		const sources = sourcesOf(srcDir);
		expect(sources.size).toBeGreaterThan(100);
		const found = violations(sources);
		for (const [violation, reason] of knownExceptions) console.log(`known exception: ${violation}\n  why: ${reason}`);
		expect(found.filter(violation => !knownExceptions.has(violation))).toEqual([]);
		expect([...knownExceptions.keys()].filter(violation => !found.includes(violation))).toEqual([]);
	});
});

describe('the import checker', () => {
	const files = (entries: Record<string, string>) => new Map(Object.entries(entries));

	it('passes a file set that keeps the rules', () => {
		expect(violations(files({
			'core/types.ts': 'export type Id = string;\n',
			'core/run/runner.ts': "import type {Id} from '../types.js';\nimport {tail} from '../output/tail.js';\n",
			'core/output/tail.ts': "import {z} from 'zod';\nexport const tail = z;\n",
			'ui/App.tsx': "import {Box} from 'ink';\nimport type {Id} from '../core/types.js';\n",
		}))).toEqual([]);
	});

	it('names an import its folder row forbids, type-only and export … from included', () => {
		expect(violations(files({
			'core/run/runner.ts': 'export class BatchRunner {}\n',
			'core/config/edit.ts': 'export type RouteField = string;\n',
			'ui/components/Pane.tsx': "import type {BatchRunner} from '../../core/run/runner.js';\n",
			'ui/format.ts': "export type {RouteField} from '../core/config/edit.js';\n",
			'core/text/sizes.ts': "const runner = await import('../run/runner.js');\n",
		}))).toEqual([
			'forbidden: ui/components/Pane.tsx → core/run/runner.ts (ui may not import core/run)',
			'forbidden: ui/format.ts → core/config/edit.ts (ui may not import core/config)',
			'forbidden: core/text/sizes.ts → core/run/runner.ts (core/text may not import core/run)',
		]);
	});

	it('names a circle, even one of type-only imports', () => {
		expect(violations(files({
			'state/store.ts': "import type {Slice} from './slice.js';\nexport type BatchState = {slice: Slice};\n",
			'state/slice.ts': "import type {BatchState} from './store.js';\nexport type Slice = {state?: BatchState};\n",
			'state/feed.ts': "import type {BatchState} from './store.js';\n",
		}))).toEqual(['circle: state/slice.ts ⇄ state/store.ts']);
	});

	it('names React, Ink or zustand under core/, and React or Ink under state/', () => {
		expect(violations(files({
			'core/run/runner.ts': "import {createStore} from 'zustand/vanilla';\n",
			'core/output/view.tsx': 'export const view = <text/>;\n',
			'state/store.ts': "import {createStore} from 'zustand/vanilla';\nimport type {Key} from 'ink';\n",
		}))).toEqual([
			'package: core/run/runner.ts → zustand/vanilla (core/run may not import zustand)',
			'package: core/output/view.tsx → react/jsx-runtime (core/output may not import react)',
			'package: state/store.ts → ink (state may not import ink)',
		]);
	});

	it('counts core/types/ as the core root: imported from anywhere, importing nothing of src beyond it', () => {
		expect(violations(files({
			'core/types.ts': "export type * from './types/plan.js';\n",
			'core/types/plan.ts': "import type {Route} from './routes.js';\nexport type Plan = {route: Route};\n",
			'core/types/routes.ts': 'export type Route = string;\n',
			'core/text/sizes.ts': "import type {Plan} from '../types/plan.js';\n",
			'core/types/status.ts': "import {sizes} from '../text/sizes.js';\n",
		}))).toEqual([
			'forbidden: core/types/status.ts → core/text/sizes.ts (core root may not import core/text)',
		]);
	});

	it('names an import of a file that is not there and a file in no folder of the rules', () => {
		expect(violations(files({
			'core/plan/routing.ts': "import {gone} from './gone.js';\n",
			'extras/tool.ts': 'export {};\n',
		}))).toEqual([
			'unresolved: core/plan/routing.ts → ./gone.js',
			'unknown folder: extras/tool.ts is in no row of the rules',
		]);
	});
});
