// Each of the two processes of a dashboard loads only its own code (bench/RESULTS.md: what a
// process loads is resident for its whole life). dist/ is split into chunks (scripts/build.mjs);
// what a process loads before it does anything is its entry chunk and every chunk that one imports
// statically, read here from the built files and their source maps. The runner host
// (host-process.ts) draws nothing: no Ink, React or the store. The dashboard (`tui`) runs no batch:
// no state.db reader, no NATS, no MCP server, nothing of the host.
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {cliPath} from '../helpers/run-cli.js';

const dist = path.dirname(cliPath);
const chunks = readdirSync(dist).filter(file => file.endsWith('.js'));

/** Static imports of a chunk: `import … from "x"`, `export … from "x"`, `import "x"` (not `import("x")`). */
function staticImports(file: string): string[] {
	const text = readFileSync(path.join(dist, file), 'utf8');
	return [...text.matchAll(/\b(?:import|export)\s*(?:[^"'();]*?\bfrom\s*)?"([^"]+)"/g)].map(match => match[1]!);
}

/** What a chunk was built from; [] for one without a source map (rolldown's own helpers). */
function sourcesOf(file: string): string[] {
	const map = path.join(dist, `${file}.map`);
	return existsSync(map) ? (JSON.parse(readFileSync(map, 'utf8')) as {sources: string[]}).sources : [];
}

function chunkHolding(source: string): string {
	const found = chunks.find(file => sourcesOf(file).some(each => each.endsWith(source)));
	if (found === undefined) throw new Error(`no chunk of ${dist} holds ${source}`);
	return found;
}

/** The packages (bundled or left outside the bundle) and the src/ folders a chunk loads with it. */
function loadedWith(entry: string): {packages: Set<string>; folders: Set<string>} {
	const packages = new Set<string>();
	const folders = new Set<string>();
	const seen = new Set<string>();
	const visit = (file: string) => {
		if (seen.has(file)) return;
		seen.add(file);
		for (const source of sourcesOf(file)) {
			const bundled = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source);
			const ours = /(?:^|\/)src\/(.+)\/[^/]+$/.exec(source);
			if (bundled) packages.add(bundled[1]!);
			else if (ours) folders.add(ours[1]!);
		}

		for (const specifier of staticImports(file)) {
			if (specifier.startsWith('./')) visit(path.normalize(path.join(path.dirname(file), specifier)));
			else if (!specifier.startsWith('node:')) packages.add(specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
		}
	};

	visit(entry);
	return {packages, folders};
}

const drawing = ['ink', 'react', 'react-reconciler', 'yoga-layout', 'zustand'];
const batchOnly = (name: string) => name === 'better-sqlite3' || name.startsWith('@nats-io/') || name.startsWith('@modelcontextprotocol/');

describe('what each process of the dashboard loads', () => {
	it('the runner host: no Ink, React, Yoga or store, nothing of the ui but the key names', () => {
		const {packages, folders} = loadedWith(chunkHolding('src/host-process.ts'));

		expect(packages.has('zod')).toBe(true); // the control: packages are found at all
		expect(drawing.filter(name => packages.has(name))).toEqual([]);
		expect([...folders].filter(folder => /^(state|client|mcp)(\/|$)|^ui\/(?!keys$)/.test(folder))).toEqual([]);
	});

	it('the dashboard (tui): no state.db reader, NATS, MCP SDK, nor the host', () => {
		const {packages, folders} = loadedWith(chunkHolding('src/commands/tui.tsx'));

		expect(packages.has('ink')).toBe(true); // the control
		expect([...packages].filter(batchOnly)).toEqual([]);
		expect([...folders].filter(folder => /^(host|mcp|distributed)(\/|$)/.test(folder))).toEqual([]);
	});
});
