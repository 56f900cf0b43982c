// The published package is lean: it declares as dependencies exactly what the
// built dist/ imports at run time (the rest is bundled into it by scripts/build.mjs), and it has no
// script that runs at install, since those would need src/ and scripts/, which it does not ship.
// The install of the packed tarball itself is exercised by scripts/package-check.mjs in .ci/run.
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const packageJson = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
	dependencies: Record<string, string>;
	scripts: Record<string, string>;
	files: string[];
};

/** Ink imports it only when DEV=true, and says then how to install it; we never ship it. */
const devOnly = new Set(['react-devtools-core']);

function bareImports(dir: string): Set<string> {
	const found = new Set<string>();
	for (const entry of readdirSync(dir, {withFileTypes: true, recursive: true})) {
		if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
		const code = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
		// The bundle's own import statements start a line; strings and comments that mention a
		// package (Ink's DEV hint) do not have this shape.
		for (const match of code.matchAll(/^import\s+(?:[\w${}\s,*]+\s+from\s+)?"([^".][^"]*)";$/gm)) {
			const name = match[1]!.startsWith('@') ? match[1]!.split('/').slice(0, 2).join('/') : match[1]!.split('/')[0]!;
			if (!name.startsWith('node:')) found.add(name);
		}
	}

	return found;
}

describe('the published package', () => {
	it('declares as dependencies exactly the packages dist/ imports', () => {
		const imported = [...bareImports(path.join(repoRoot, 'dist'))].filter(name => !devOnly.has(name)).sort();
		expect(imported.length).toBeGreaterThan(0);
		expect(Object.keys(packageJson.dependencies).sort()).toEqual(imported);
	});

	it('runs no script of its own at install', () => {
		for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(packageJson.scripts[hook]).toBeUndefined();
	});
});
