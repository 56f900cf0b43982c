// Every binding, generated from the binding table (so it shows remapped keys), by where it works,
// after every warning of the batch (the header has room for one). Flows into more columns when
// the terminal is short rather than growing past it.
import {Box, Text} from 'ink';
import {wrapWords} from '../format.js';
import {formatKey} from '../key-descriptor.js';
import {helpEntries, type Bindings, type Command, type KeyContext} from '../keys.js';
import {useBatch} from '../store-context.js';
import {useTheme} from '../theme.js';

const sections: ReadonlyArray<{context: KeyContext; title: string}> = [
	{context: 'grid', title: 'Dashboard'},
	{context: 'zoom', title: 'Zoomed task'},
	{context: 'search', title: 'Search field'},
	{context: 'confirm', title: 'Confirm prompt'},
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

export function HelpOverlay({width, height, bindings}: {readonly width: number; readonly height: number; readonly bindings: Bindings}) {
	const theme = useTheme();
	const warnings = useBatch(state => state.warnings);
	const rows = helpRows(bindings);
	const allWarningLines = warningRows(warnings, width - 4);
	// Warnings first: the keys are the same every run, the warnings are about this one. A blank line
	// separates them from the keys; at least one line is left to say how to close the help.
	let warningLines = allWarningLines.slice(0, Math.max(0, height - chrome - 2));
	if (warningLines.length < allWarningLines.length) {
		warningLines = [...warningLines.slice(0, -1), `… ${allWarningLines.length - warningLines.length + 1} more lines: enlarge the terminal`];
	}

	const warningHeight = warningLines.length === 0 ? 0 : warningLines.length + 1;
	const perColumn = Math.max(1, height - chrome - warningHeight);
	const fitting = Math.max(1, Math.floor((width - 4 + columnGap) / (minColumnWidth + columnGap)));
	const needed = Math.ceil(rows.length / perColumn);
	const columnCount = Math.min(needed, fitting);
	const shown = columnCount * perColumn;
	const columns: Row[][] = [];
	for (let index = 0; index < Math.min(rows.length, shown); index += perColumn) {
		columns.push(rows.slice(index, index + perColumn));
	}

	// When even the columns do not hold everything, the last line says so instead of cutting silently.
	if (rows.length > shown) {
		columns.at(-1)!.splice(-1, 1, {kind: 'title', text: `… ${rows.length - shown + 1} more: enlarge the terminal`});
	}

	const columnWidth = Math.floor((width - 4 - (columnCount - 1) * columnGap) / columnCount);
	const keysWidth = Math.min(maxKeysWidth, Math.max(...rows.map(row => (row.kind === 'entry' ? [...row.keys].length : 0))));
	const close = [bindings.get('zoom.close')?.[0], bindings.get('help.toggle')?.[0]].filter(key => key !== undefined).map(formatKey).join(' or ');

	return (
		<Box flexDirection='column' width={width} height={height} overflow='hidden' borderStyle='round' borderColor={theme.colors.border.focused} paddingX={1}>
			<Text wrap='truncate-end' bold color={theme.colors.header.title}>{`${warnings.length > 0 ? 'Warnings and keys' : 'Keys'} · ${close} closes this help`}</Text>
			{warningLines.length > 0 && (
				<Box flexDirection='column' height={warningHeight} flexShrink={0}>
					{warningLines.map((line, index) => (
						<Text key={index} wrap='truncate-end' bold={index === 0} color={index === 0 ? theme.colors.text.primary : theme.colors.text.warning}>{line}</Text>
					))}
				</Box>
			)}
			<Box>
				{columns.map((column, index) => (
					<Box key={index} flexDirection='column' width={columnWidth} marginLeft={index === 0 ? 0 : columnGap} overflow='hidden'>
						{column.map((row, rowIndex) => (row.kind === 'title'
							? <Text key={rowIndex} wrap='truncate-end' bold color={theme.colors.text.primary}>{row.text}</Text>
							: (
								<Text key={rowIndex} wrap='truncate-end'>
									<Text color={theme.colors.text.accent}>{row.keys.padEnd(keysWidth)}</Text>
									<Text color={theme.colors.text.muted}>{` ${row.description}`}</Text>
								</Text>
							)))}
					</Box>
				))}
			</Box>
		</Box>
	);
}
