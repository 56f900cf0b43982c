// Every binding, generated from the binding table (so it shows remapped keys), by where it works,
// after every warning of the batch (the header has room for one). The keys flow into as many
// columns as the width holds; what still does not fit scrolls with the scroll keys.
import {Box, Text, useInput, useStdin} from 'ink';
import {useState} from 'react';
import {keyContext} from '../commands.js';
import {wrapWords} from '../format.js';
import {formatKey} from '../key-descriptor.js';
import {helpEntries, matchCommand, type Bindings, type Command, type KeyContext} from '../keys.js';
import {useBatch, useBatchStore} from '../store-context.js';
import {useTheme} from '../theme.js';

const sections: ReadonlyArray<{context: KeyContext; title: string}> = [
	{context: 'grid', title: 'Dashboard'},
	{context: 'zoom', title: 'Zoomed task'},
	{context: 'search', title: 'Search field'},
	{context: 'confirm', title: 'Confirm prompt'},
	{context: 'routes', title: 'Routes editor'},
	{context: 'route-edit', title: 'Typing a route field or a model'},
	{context: 'route-pick', title: 'Route picker (R)'},
];

type Row = {kind: 'title'; text: string} | {kind: 'entry'; keys: string; description: string};

const maxKeysWidth = 14;
const minColumnWidth = 36;
const columnGap = 2;
// Border top and bottom, plus the title line.
const chrome = 3;

/** The help rows: each command once, under the first place it works. */
export function helpRows(bindings: Bindings): Row[] {
	const seen = new Set<Command>();
	const rows: Row[] = [];
	for (const section of sections) {
		const entries = helpEntries(bindings, section.context).filter(entry => !seen.has(entry.command));
		if (entries.length === 0) {
			continue;
		}

		rows.push({kind: 'title', text: section.title});
		for (const entry of entries) {
			seen.add(entry.command);
			rows.push({kind: 'entry', keys: entry.keys, description: entry.description});
		}
	}

	return rows;
}

/** The warnings section: a title, then each warning word-wrapped to the width, marked where it starts. */
export function warningRows(warnings: readonly string[], width: number): string[] {
	if (warnings.length === 0) {
		return [];
	}

	const lines = warnings.flatMap(warning => wrapWords(warning, width - 2).map((line, index) => `${index === 0 ? '⚠' : ' '} ${line}`));
	return [`Warnings (${warnings.length})`, ...lines];
}

/** One screen line of the help: a warnings line, a blank, or one row of each key column. */
export type HelpLine = {kind: 'warning'; text: string; first: boolean} | {kind: 'blank'} | {kind: 'keys'; cells: Row[]};

/**
 * The key rows in `count` columns of balanced height, read down each column. A section title is
 * never left alone at the foot of a column: it moves to the top of the next.
 */
export function keyColumns(rows: readonly Row[], count: number): Row[][] {
	const columns: Row[][] = [];
	let rest = [...rows];
	for (let left = count; left > 0 && rest.length > 0; left--) {
		let take = Math.ceil(rest.length / left);
		if (left > 1 && take > 1 && rest[take - 1]?.kind === 'title') {
			take--;
		}

		columns.push(rest.slice(0, take));
		rest = rest.slice(take);
	}

	return columns;
}

/** Everything the help shows, top to bottom: warnings, a blank, then the key columns side by side. */
export function helpLines(warnings: readonly string[], rows: readonly Row[], columnCount: number, width: number): HelpLine[] {
	const warningLines = warningRows(warnings, width);
	const lines: HelpLine[] = warningLines.map((text, index) => ({kind: 'warning', text, first: index === 0}));
	if (lines.length > 0) {
		lines.push({kind: 'blank'});
	}

	const columns = keyColumns(rows, columnCount);
	const height = Math.max(0, ...columns.map(column => column.length));
	for (let index = 0; index < height; index++) {
		lines.push({kind: 'keys', cells: columns.map(column => column[index] ?? {kind: 'title', text: ''})});
	}

	return lines;
}

/** The lines on screen at `offset`, with a marker line for what is hidden above and below. */
export function helpWindow(total: number, visible: number, offset: number): {start: number; end: number; above: number; below: number; maxOffset: number} {
	if (total <= visible) {
		return {start: 0, end: total, above: 0, below: 0, maxOffset: 0};
	}

	// Scrolled to the end, the top marker and the last lines fill the view.
	const maxOffset = Math.max(0, total - Math.max(1, visible - 1));
	const start = Math.min(Math.max(0, offset), maxOffset);
	const room = Math.max(1, visible - (start > 0 ? 1 : 0));
	const end = total - start > room ? start + Math.max(1, room - 1) : total;
	return {start, end, above: start, below: total - end, maxOffset};
}

export function HelpOverlay({width, height, bindings}: {readonly width: number; readonly height: number; readonly bindings: Bindings}) {
	const theme = useTheme();
	const store = useBatchStore();
	const {isRawModeSupported} = useStdin();
	const warnings = useBatch(state => state.warnings);
	// UI-only state: how far the help is scrolled means nothing outside this overlay.
	const [offset, setOffset] = useState(0);
	const rows = helpRows(bindings);
	const columnCount = Math.max(1, Math.floor((width - 4 + columnGap) / (minColumnWidth + columnGap)));
	const lines = helpLines(warnings, rows, columnCount, width - 4);
	const visible = Math.max(1, height - chrome);
	const view = helpWindow(lines.length, visible, offset);

	useInput((input, key) => {
		// The app's key handler leaves the scroll keys to the overlay while it is the innermost one.
		if (keyContext(store.getState()) !== 'help') {
			return;
		}

		const step: Partial<Record<Command, number>> = {'scroll.up': -1, 'scroll.down': 1, 'scroll.pageUp': -(visible - 2), 'scroll.pageDown': visible - 2};
		const command = matchCommand(bindings, 'help', input, key);
		const delta = command === undefined ? undefined : step[command];
		if (delta !== undefined) {
			// From the previous offset, not this render's: keys that arrive together are all handled
			// before the next render, and each must move on from where the one before it left off.
			setOffset(previous => {
				const from = helpWindow(lines.length, visible, previous);
				return Math.min(from.maxOffset, Math.max(0, from.start + (delta > 0 ? Math.max(1, delta) : Math.min(-1, delta))));
			});
		}
	}, {isActive: isRawModeSupported});

	const columnWidth = Math.floor((width - 4 - (columnCount - 1) * columnGap) / columnCount);
	const keysWidth = Math.min(maxKeysWidth, Math.max(...rows.map(row => (row.kind === 'entry' ? [...row.keys].length : 0))));
	const close = [bindings.get('zoom.close')?.[0], bindings.get('help.toggle')?.[0]].filter(key => key !== undefined).map(formatKey).join(' or ');
	const scrollKeys = ['scroll.down', 'scroll.pageDown'].map(command => bindings.get(command as Command)?.[0]).filter(key => key !== undefined).map(formatKey).join('/');

	return (
		<Box flexDirection='column' width={width} height={height} overflow='hidden' borderStyle='round' borderColor={theme.colors.border.focused} paddingX={1}>
			<Text wrap='truncate-end' bold color={theme.colors.header.title}>{`${warnings.length > 0 ? 'Warnings and keys' : 'Keys'} · ${close} closes this help`}</Text>
			{view.above > 0 && <Text wrap='truncate-end' color={theme.colors.text.muted}>{`↑ ${view.above} more`}</Text>}
			{lines.slice(view.start, view.end).map((line, index) => {
				if (line.kind === 'blank') {
					return <Text key={index}> </Text>;
				}

				if (line.kind === 'warning') {
					return <Text key={index} wrap='truncate-end' bold={line.first} color={line.first ? theme.colors.text.primary : theme.colors.text.warning}>{line.text}</Text>;
				}

				return (
					<Box key={index}>
						{line.cells.map((row, column) => (
							<Box key={column} width={columnWidth} marginLeft={column === 0 ? 0 : columnGap} overflow='hidden'>
								{row.kind === 'title'
									? <Text wrap='truncate-end' bold color={theme.colors.text.primary}>{row.text}</Text>
									: (
										<Text wrap='truncate-end'>
											<Text color={theme.colors.text.accent}>{row.keys.padEnd(keysWidth)}</Text>
											<Text color={theme.colors.text.muted}>{` ${row.description}`}</Text>
										</Text>
									)}
							</Box>
						))}
					</Box>
				);
			})}
			{view.below > 0 && <Text wrap='truncate-end' color={theme.colors.text.muted}>{`↓ ${view.below} more${scrollKeys === '' ? '' : ` · ${scrollKeys} scrolls`}`}</Text>}
		</Box>
	);
}
