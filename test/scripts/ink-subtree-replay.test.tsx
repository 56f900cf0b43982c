// A frame of the edited Ink walks only the boxes that changed and writes the others' last
// operations again (scripts/ink-subtree-replay.mjs). Ink is bundled twice, as published and as
// the build edits it, and both render the same sequences of trees: rows that stay, change, move,
// appear and go; widths, margins, borders and clips that change around boxes that do not. Every
// frame must be the same characters. (Every UI test also runs on the edited Ink: vitest's
// edited-ink project.)
import {EventEmitter} from 'node:events';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import fc from 'fast-check';
import {memo, useState, type ReactElement, type ReactNode} from 'react';
import {rolldown, type RolldownPluginOption} from 'rolldown';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {boundInkCaches, patchedFiles} from '../../scripts/ink-cache-bounds.mjs';

type BoxProps = Record<string, unknown> & {children?: ReactNode};
type InkModule = {
	render(tree: ReactElement, options: Record<string, unknown>): {unmount(): void};
	Box: (props: BoxProps) => ReactElement;
	Text: (props: BoxProps) => ReactElement;
	instances: WeakMap<object, {rootNode: DomNode}>;
};
type DomNode = {nodeName: string; nodeValue?: string; childNodes?: DomNode[]; internal_frame?: object};

const require = createRequire(import.meta.url);
const installedInk = path.dirname(require.resolve('ink'));
const work = mkdtempSync(path.join(tmpdir(), 'hd-ink-replay-'));
afterAll(() => {
	rmSync(work, {recursive: true, force: true});
});

async function bundledInk(name: string, plugins: RolldownPluginOption[]): Promise<InkModule> {
	const entry = path.join(work, `${name}-entry.mjs`);
	const file = (base: string) => JSON.stringify(path.join(installedInk, base));
	writeFileSync(entry, [
		`export {default as render} from ${file('render.js')};`,
		`export {default as Box} from ${file('components/Box.js')};`,
		`export {default as Text} from ${file('components/Text.js')};`,
		`export {default as instances} from ${file('instances.js')};`,
		// The plugin fails a bundle that leaves an edited file out.
		...patchedFiles.map(other => `import ${file(other)};`),
	].join('\n'));
	// React stays outside, by its path here, so that the bundle (in a temporary folder) shares this
	// file's React; Ink's other packages go in, as in the build.
	const shareReact: RolldownPluginOption = {
		name: 'share-react',
		resolveId: (id: string) => (/^react(\/.*)?$/.test(id) ? {id: require.resolve(id), external: true} : null),
	};
	const bundle = await rolldown({input: entry, platform: 'node', external: [/^node:/, 'react-devtools-core'], plugins: [shareReact, ...plugins], logLevel: 'silent'});
	// A folder: Ink imports its devtools in a chunk of their own, loaded only when DEV is set.
	await bundle.write({dir: path.join(work, name), format: 'esm', entryFileNames: 'ink.mjs'});
	await bundle.close();
	return (await import(pathToFileURL(path.join(work, name, 'ink.mjs')).href)) as InkModule;
}

class Stdout extends EventEmitter {
	columns = 40;
	rows = 20;
	frames: string[] = [];
	write = (frame: string) => {
		this.frames.push(frame);
		return true;
	};
}

class Stdin extends EventEmitter {
	isTTY = true;
	setEncoding() {}
	setRawMode() {}
	resume() {}
	pause() {}
	ref() {}
	unref() {}
	read = () => null;
}

type Row = {key: string; text: string; tail: string; indent: number; width: number; colour: string | undefined};
type Spec = {width: number; rows: Row[]; pane: string; paneHeight: number; border: boolean; gap: number};

// Its own memoised box: when the column before it changes width, the row is drawn again but this
// box only moves sideways (with its clip).
const TailView = memo(function TailView({ink, tail}: {ink: InkModule; tail: string}) {
	const {Box, Text} = ink;
	return (
		<Box overflow='hidden' width={10} flexShrink={0}>
			<Text wrap='truncate-end'>{tail}</Text>
		</Box>
	);
});

// Rows memoised, as the dashboard's are: a row an update does not change is not rendered again,
// so its boxes get no commit and can be replayed.
const RowView = memo(function RowView({ink, text, tail, indent, width, colour}: Omit<Row, 'key'> & {ink: InkModule}) {
	const {Box, Text} = ink;
	return (
		<Box height={1} overflow='hidden' marginLeft={indent}>
			<Box width={width} flexShrink={0}>
				<Text wrap='truncate-end' color={colour}>{text}</Text>
			</Box>
			<TailView ink={ink} tail={tail}/>
		</Box>
	);
});

function tree(ink: InkModule, spec: Spec): ReactElement {
	const {Box, Text} = ink;
	return (
		<Box flexDirection='column' width={spec.width}>
			<Box flexDirection='column' marginBottom={spec.gap}>
				{spec.rows.map(({key, ...row}) => <RowView key={key} ink={ink} {...row}/>)}
			</Box>
			<Box flexDirection='column' height={spec.paneHeight} overflow='hidden' paddingX={1} borderStyle={spec.border ? 'round' : undefined}>
				<Box><Text bold color='cyan'>{`head ${spec.rows.length}`}</Text></Box>
				<Text>{spec.pane}</Text>
			</Box>
		</Box>
	);
}

/** The tree of a spec held in state: `control.set` moves it on, as the store moves the dashboard on. */
function Harness({ink, first, control}: {ink: InkModule; first: Spec; control: {set?: (spec: Spec) => void}}) {
	const [spec, set] = useState(first);
	control.set = set;
	return tree(ink, spec);
}

/**
 * The tree of `first` mounted once and then moved on by state updates, as the dashboard's is
 * (a rerender() would give Ink's context providers new values and render every component again).
 */
function mount(ink: InkModule, first: Spec): {stdout: Stdout; show(spec: Spec): Promise<void>; rootNode(): DomNode; unmount(): void} {
	const stdout = new Stdout();
	const control: {set?: (spec: Spec) => void} = {};
	const instance = ink.render(<Harness ink={ink} first={first} control={control}/>, {stdout, stderr: new Stdout(), stdin: new Stdin(), debug: true, exitOnCtrlC: false, patchConsole: false});
	// React renders the update later (in the scheduler's turn); Ink's debug mode writes a frame
	// for every commit, so the next frame is the update's.
	const show = async (spec: Spec) => {
		const before = stdout.frames.length;
		control.set!(spec);
		while (stdout.frames.length === before) {
			await new Promise(resolve => setImmediate(resolve));
		}
	};

	return {stdout, show, rootNode: () => ink.instances.get(stdout)!.rootNode, unmount: () => instance.unmount()};
}

/** The frame each spec of `specs` draws, in turn. */
async function frames(ink: InkModule, specs: Spec[]): Promise<string[]> {
	const mounted = mount(ink, specs[0]!);
	const drawn = [mounted.stdout.frames.at(-1)!];
	for (const spec of specs.slice(1)) {
		await mounted.show(spec);
		drawn.push(mounted.stdout.frames.at(-1)!);
	}

	mounted.unmount();
	return drawn;
}

function textOf(node: DomNode): string {
	return node.nodeValue ?? (node.childNodes ?? []).map(textOf).join('');
}

function find(node: DomNode, matches: (node: DomNode) => boolean): DomNode | undefined {
	if (matches(node)) return node;
	for (const child of node.childNodes ?? []) {
		const found = find(child, matches);
		if (found) return found;
	}

	return undefined;
}

let published: InkModule;
let edited: InkModule;
beforeAll(async () => {
	published = await bundledInk('published', []);
	edited = await bundledInk('edited', [boundInkCaches()]);
}, 60_000);

const words = ['a', 'step one', 'a longer line than the box', '日本語', 'é…', '\u001B[31mred\u001B[39m', ''];
const row = fc.record({
	key: fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5'),
	text: fc.constantFrom(...words),
	tail: fc.constantFrom(...words),
	indent: fc.constantFrom(0, 0, 0, 2),
	width: fc.constantFrom(4, 4, 9),
	colour: fc.constantFrom(undefined, undefined, 'green'),
});
const spec = fc.record({
	width: fc.constantFrom(30, 30, 30, 24),
	rows: fc.uniqueArray(row, {selector: item => item.key, maxLength: 5}),
	pane: fc.constantFrom(...words, 'two\nlines', 'three\nlines\nhere'),
	paneHeight: fc.constantFrom(4, 4, 6),
	border: fc.boolean(),
	gap: fc.constantFrom(0, 0, 1),
});
// Consecutive specs that share most of what they show, so that boxes stay, move and change.
const sequence = fc.tuple(spec, fc.array(fc.tuple(fc.nat(), spec), {minLength: 1, maxLength: 6})).map(([first, changes]) => {
	const specs = [first];
	for (const [which, next] of changes) {
		const previous = specs.at(-1)!;
		const field = (['rows', 'pane', 'width', 'paneHeight', 'border', 'gap', 'row', 'row', 'column'] as const)[which % 9]!;
		if (field === 'column') {
			// One row's first column changes width: its tail moves sideways.
			specs.push({...previous, rows: previous.rows.map((item, index) => (index === which % Math.max(1, previous.rows.length) ? {...item, width: item.width === 4 ? 9 : 4} : item))});
		} else if (field === 'row') {
			// One row's text changes, or the rows move: the others stay as they were.
			const rows = which % 3 === 0 ? [...previous.rows].reverse() : previous.rows.map((item, index) => (index === which % Math.max(1, previous.rows.length) ? {...item, tail: next.pane} : item));
			specs.push({...previous, rows});
		} else {
			specs.push({...previous, [field]: next[field]});
		}
	}

	return specs;
});

describe('Ink frames that replay unchanged boxes', () => {
	it('are the frames Ink as published draws, render after render', async () => {
		await fc.assert(fc.asyncProperty(sequence, async specs => {
			const drawn = await frames(published, specs);
			expect(await frames(edited, specs)).toEqual(drawn);
		}), {numRuns: 200});
	});

	it('replays a box whose subtree did not change: its recorded frame is not made again', async () => {
		const rows: Row[] = [
			{key: 'r1', text: 'one', tail: 'first', indent: 0, width: 4, colour: undefined},
			{key: 'r2', text: 'two', tail: 'second', indent: 0, width: 4, colour: 'green'},
		];
		const first: Spec = {width: 30, rows, pane: 'a', paneHeight: 4, border: true, gap: 0};
		const mounted = mount(edited, first);
		// The first row: the box whose first child is the box of the text 'one'.
		const rowBox = (): DomNode => find(mounted.rootNode(), node => node.nodeName === 'ink-box' && node.childNodes?.[0]?.nodeName === 'ink-box' && textOf(node.childNodes[0]) === 'one')!;
		const recorded = rowBox().internal_frame;
		expect(recorded).toBeDefined();
		// Rendered again by its parent with the same props (a new style object, a new transform):
		// nothing it draws changed, so it is replayed too.
		const headBox = (): DomNode => find(mounted.rootNode(), node => node.nodeName === 'ink-box' && node.childNodes?.length === 1 && textOf(node) === 'head 2')!;
		const head = headBox().internal_frame;
		expect(head).toBeDefined();
		await mounted.show({...first, pane: 'b'});
		expect(mounted.stdout.frames.at(-1)).toContain('│ b');
		expect(rowBox().internal_frame).toBe(recorded);
		expect(headBox().internal_frame).toBe(head);
		await mounted.show({...first, rows: [{...rows[0]!, tail: 'changed'}, rows[1]!], pane: 'b'});
		expect(mounted.stdout.frames.at(-1)).toContain('one changed');
		expect(rowBox().internal_frame).not.toBe(recorded);
		mounted.unmount();
	});
});
