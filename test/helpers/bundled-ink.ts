// Ink's build files bundled as scripts/build.mjs bundles them, with or without our edits
// (scripts/ink-cache-bounds.mjs), for the tests that compare the two. Every edited file enters
// the bundle, as in the real build: the plugin fails a build that leaves one out.
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {rolldown, type RolldownPluginOption} from 'rolldown';
import {patchedFiles} from '../../scripts/ink-cache-bounds.mjs';

/** The module of `inkBuild`'s `file` (its default export as `exported`), bundled into `work` under `name`. */
export async function bundledInk<T>(work: string, name: string, inkBuild: string, file: string, exported: string, plugins: RolldownPluginOption[]): Promise<T> {
	const entry = path.join(work, `${name}-entry.mjs`);
	writeFileSync(entry, [
		`export {default as ${exported}} from ${JSON.stringify(path.join(inkBuild, file))};`,
		...patchedFiles.filter(other => other !== file).map(other => `import ${JSON.stringify(path.join(inkBuild, other))};`),
	].join('\n'));
	const bundle = await rolldown({input: entry, platform: 'node', external: [/^node:/, /^[a-z@]/], plugins, logLevel: 'silent'});
	// A folder: reconciler.js (edited, so imported) loads Ink's devtools as a chunk of their own.
	const bundled = path.join(work, name, 'entry.mjs');
	await bundle.write({dir: path.join(work, name), format: 'esm', entryFileNames: 'entry.mjs'});
	await bundle.close();
	return (await import(pathToFileURL(bundled).href) as Record<string, T>)[exported]!;
}
