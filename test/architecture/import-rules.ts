// The folder rules of src/ (CONTRIBUTING.md, "How it is built") as data, and a checker that reads a file set's
// imports with the TypeScript compiler. Type-only imports count: a type circle is still a circle
// for a reader, and it becomes a real one the day a value crosses it.
import path from 'node:path';
import ts from 'typescript';

/** A folder of src/ whose files share one set of permitted imports. */
export type Zone = string;

/**
 * Who may import whom. A zone's own files may always import each other. An entry is a zone, or
 * one file (`core/process/proc-tree.ts`) when a zone needs a single idea of another and no more.
 */
export const allowedImports: Record<Zone, readonly string[]> = {
	'core root': [],
	'core/text': ['core root'],
	'core/output': ['core root', 'core/text'],
	'core/process': ['core root'],
	// Hermes's answers are cleaned with the output folder's sanitiser; output knows no Hermes.
	'core/hermes': ['core root', 'core/text', 'core/output'],
	// The owner of a run folder is recorded and checked as a process (pid + start time).
	'core/run-folder': ['core root', 'core/text', 'core/process', 'core/hermes/home.ts'],
	// The demo prunes the runs it made.
	'core/input': ['core root', 'core/text', 'core/hermes', 'core/run-folder'],
	// A task's limits come from its input; a route's flags are Hermes's.
	'core/plan': ['core root', 'core/text', 'core/hermes/flags.ts', 'core/input'],
	// The config lock's owner check is the same pid + start-time test as a run folder's owner:
	// proc-tree.ts is a leaf (no src imports), so the lock reuses it instead of a second /proc reader.
	// Edits to a YAML file as text splices, and the file as PyYAML (YAML 1.1) reads it.
	'core/yaml': ['core root', 'core/text'],
	'core/config': ['core root', 'core/text', 'core/yaml', 'core/output', 'core/hermes/home.ts', 'core/process/proc-tree.ts'],
	'core/run': ['core root', 'core/text', 'core/output', 'core/process', 'core/hermes', 'core/run-folder', 'core/plan'],
	// Theme files are read from the package's themes/ folder.
	'core/theme': ['core root', 'core/text', 'package-files.ts'],
	state: ['wire', 'core root', 'core/text', 'core/output', 'core/process', 'core/hermes', 'core/run-folder', 'core/input', 'core/plan', 'core/config', 'core/run', 'core/theme'],
	// What crosses the runner host's socket (and its launch pipe, and host.json): plain data and its
	// schemas, so that both processes read one definition.
	wire: ['core root'],
	// The runner-host process only: serves the core's runner over the socket.
	host: ['wire', 'core root', 'core/text', 'core/output', 'core/process', 'core/hermes', 'core/run-folder', 'core/input', 'core/plan', 'core/config', 'core/run', 'core/theme'],
	// What dashboards, scripts and the MCP server run to reach a host: the connection, the panes it
	// pushes, finding live runs (from run folders and the demo's home) and launching a host.
	client: ['wire', 'state', 'core root', 'core/hermes/home.ts', 'core/input/demo.ts', 'core/run-folder'],
	// The MCP server (`hermes-delegate mcp`): its tools reach batches only as a client does (the
	// batches run under runner hosts), and read the routing and settings as `run` does.
	mcp: ['client', 'wire', 'core root', 'core/text', 'core/output', 'core/hermes', 'core/run-folder', 'core/plan', 'core/config'],
	ui: ['state', 'core root', 'core/text', 'core/output', 'core/theme', 'package-files.ts'],
	// Tasks on worker hosts through NATS: a worker runs attempts with the core's local executor; the
	// runner host's side is an executor. The core never imports it.
	distributed: ['core root', 'core/text', 'core/output', 'core/process', 'core/hermes', 'core/run-folder', 'core/plan', 'core/run'],
	// early-host.ts: the runner host bin.ts started before the CLI loaded, for start-host.ts to adopt.
	commands: ['ui', 'state', 'wire', 'client', 'host', 'mcp', 'distributed', 'core root', 'core/text', 'core/output', 'core/process', 'core/hermes', 'core/run-folder', 'core/input', 'core/plan', 'core/config', 'core/run', 'core/theme', 'package-files.ts', 'early-host.ts'],
	// cli.ts and host-process.ts (the runner host's entry, without commander): the last-resort kill
	// and terminal-safe messages; everything else goes through a command.
	cli: ['commands', 'core root', 'core/process', 'core/output', 'package-files.ts'],
	// bin.ts checks the Node version before it loads the rest.
	bin: ['cli', 'node-support.ts', 'young-generation.ts', 'compile-cache.ts', 'early-host.ts'],
	'src root': [],
	// The fake agent stands in for another program: it shares nothing with the product.
	'fake-agent': [],
};

/** npm packages a zone must not import (the UI's libraries stay above the state and the core). */
export const forbiddenPackages: Partial<Record<Zone, readonly string[]>> = {
	state: ['react', 'ink'],
	wire: ['react', 'ink', 'zustand'],
	host: ['react', 'ink', 'zustand'],
	client: ['react', 'ink'],
	mcp: ['react', 'ink', 'zustand'],
	distributed: ['react', 'ink', 'zustand'],
};
const uiLibraries = ['react', 'ink', 'zustand'];

/** The zone of a file, by its path relative to src/ (posix separators). */
export function zoneOf(file: string): Zone {
	const parts = file.split('/');
	// core/types/ is the root's vocabulary split by idea: one zone with core/types.ts and errors.ts.
	if (parts[0] === 'core') return parts.length === 2 || parts[1] === 'types' ? 'core root' : `core/${parts[1]!}`;
	if (parts.length === 1) {
		if (file === 'cli.ts' || file === 'host-process.ts') return 'cli';
		if (file === 'bin.ts') return 'bin';
		return 'src root';
	}
	return parts[0]!;
}

function forbiddenPackagesOf(zone: Zone): readonly string[] {
	return zone.startsWith('core') ? uiLibraries : forbiddenPackages[zone] ?? [];
}

export type ImportEdge = {from: string; specifier: string};

/**
 * Every module a file names: import and export … from (type-only too), import x = require(…),
 * import(…) calls and import('…') types. A .tsx file also imports React's JSX runtime.
 */
export function importsOf(file: string, text: string): ImportEdge[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
	const specifiers: string[] = file.endsWith('.tsx') ? ['react/jsx-runtime'] : [];
	const visit = (node: ts.Node): void => {
		if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
			specifiers.push(node.moduleSpecifier.text);
		} else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
			specifiers.push(node.moduleReference.expression.text);
		} else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] !== undefined && ts.isStringLiteral(node.arguments[0])) {
			specifiers.push(node.arguments[0].text);
		} else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
			specifiers.push(node.argument.literal.text);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return specifiers.map(specifier => ({from: file, specifier}));
}

/** The file a relative specifier names (`./x.js` is the source `./x.ts` or `./x.tsx`). */
function resolve(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
	const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
	const candidates = [joined, joined.replace(/\.js$/, '.ts'), joined.replace(/\.js$/, '.tsx'), joined.replace(/\.jsx$/, '.tsx')];
	return candidates.find(candidate => files.has(candidate));
}

function packageOf(specifier: string): string {
	const parts = specifier.split('/');
	return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function allows(fromZone: Zone, target: string): boolean {
	const toZone = zoneOf(target);
	if (toZone === fromZone) return true;
	const allowed = allowedImports[fromZone];
	if (allowed === undefined) return false;
	return allowed.includes(toZone) || allowed.includes(target);
}

/** Strongly connected groups of two or more files, or a file importing itself: the circles. */
function circles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
	let counter = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const found: string[][] = [];
	const connect = (file: string): void => {
		index.set(file, counter);
		low.set(file, counter);
		counter++;
		stack.push(file);
		onStack.add(file);
		for (const next of graph.get(file) ?? []) {
			if (!index.has(next)) {
				connect(next);
				low.set(file, Math.min(low.get(file)!, low.get(next)!));
			} else if (onStack.has(next)) {
				low.set(file, Math.min(low.get(file)!, index.get(next)!));
			}
		}
		if (low.get(file) === index.get(file)) {
			const group: string[] = [];
			let member: string;
			do {
				member = stack.pop()!;
				onStack.delete(member);
				group.push(member);
			} while (member !== file);
			if (group.length > 1 || graph.get(file)?.has(file)) found.push(group.sort());
		}
	};
	for (const file of [...graph.keys()].sort()) if (!index.has(file)) connect(file);
	return found;
}

/**
 * Every broken rule in a file set (paths relative to src/, posix separators), one sentence each:
 * `forbidden: a → b`, `package: a → react`, `unresolved: a → ./b.js`, `circle: a → b → a`.
 */
export function violations(sources: ReadonlyMap<string, string>): string[] {
	const files = new Set(sources.keys());
	const graph = new Map<string, Set<string>>();
	const found: string[] = [];
	for (const [file, text] of sources) {
		const zone = zoneOf(file);
		const targets = new Set<string>();
		graph.set(file, targets);
		if (allowedImports[zone] === undefined) found.push(`unknown folder: ${file} is in no row of the rules`);
		for (const {specifier} of importsOf(file, text)) {
			if (specifier.startsWith('.')) {
				const target = resolve(file, specifier, files);
				if (target === undefined) {
					found.push(`unresolved: ${file} → ${specifier}`);
					continue;
				}
				targets.add(target);
				if (!allows(zone, target)) found.push(`forbidden: ${file} → ${target} (${zone} may not import ${zoneOf(target)})`);
			} else if (forbiddenPackagesOf(zone).includes(packageOf(specifier))) {
				found.push(`package: ${file} → ${specifier} (${zone} may not import ${packageOf(specifier)})`);
			}
		}
	}
	for (const group of circles(graph)) found.push(`circle: ${group.join(' ⇄ ')}`);
	return found;
}
