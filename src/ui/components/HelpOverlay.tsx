// Every binding, generated from the binding table (so it shows remapped keys), by where it works,
// after every warning of the batch (the header has room for one). One column, each description
// whole and word-wrapped beside its keys: columns side by side cut the descriptions until
// several read alike ("Edit the selected model ro…"). What does not fit scrolls.
import {Box, Text} from 'ink';
import {wrapWords} from '../text/format.js';
import {useBindings} from '../keys/bindings-context.js';
import {formatKey} from '../keys/key-descriptor.js';
import {helpEntries, type Bindings, type Command, type KeyContext} from '../keys/keys.js';
import {useScrollWindow} from '../hooks/use-scroll-window.js';
import {useBatch} from '../store-context.js';
import {useTheme} from '../theme/theme.js';
import {mouseHelp, useMouseOn} from '../mouse/mouse-on.js';

const sections: ReadonlyArray<{context: KeyContext; title: string}> = [
	{context: 'grid', title: 'Dashboard'},
	{context: 'zoom', title: 'Zoomed task'},
	{context: 'search', title: 'Search field'},
	{context: 'filter', title: 'Filter prompt (/)'},
	{context: 'spend', title: 'Spend table'},
	{context: 'confirm', title: 'Confirm prompt'},
	{context: 'routes', title: 'Routes editor'},
	{context: 'route-edit', title: 'Typing a route field or a model'},
	{context: 'route-pick', title: 'Route picker (R)'},
];

type Row = {kind: 'title'; text: string} | {kind: 'entry'; keys: string; description: string};

const maxKeysWidth = 14;
// Past this a line of prose is hard to follow back to its start; wide terminals leave the rest blank.
const maxTextWidth = 100;
// Border top and bottom, plus the title line.
const chrome = 3;

/** The help rows: each command once, under the first place it works; then the mouse, when it is on. */
export function helpRows(bindings: Bindings, mouse = false): Row[] {
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

	if (mouse) {
		rows.push({kind: 'title', text: 'Mouse'}, ...mouseHelp.map(entry => ({kind: 'entry' as const, ...entry})));
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

/** One screen line of the help: a warnings line, a blank, a section title, or keys with (a line of) their description. */
export type HelpLine =
	| {kind: 'warning'; text: string; first: boolean}
	| {kind: 'blank'}
	| {kind: 'title'; text: string}
	| {kind: 'entry'; keys: string; text: string};

/** The width the keys take: the longest binding, at most maxKeysWidth (a longer one wraps onto its own line). */
export function keysWidthOf(rows: readonly Row[]): number {
	return Math.min(maxKeysWidth, Math.max(1, ...rows.map(row => (row.kind === 'entry' ? [...row.keys].length : 0))));
}

/**
 * Everything the help shows, top to bottom: warnings, then each section with a blank line before
 * its title, each description wrapped beside its keys. `width` is the text's room inside the border.
 */
export function helpLines(warnings: readonly string[], rows: readonly Row[], width: number): HelpLine[] {
	const textWidth = Math.min(width, maxTextWidth);
	const lines: HelpLine[] = warningRows(warnings, textWidth).map((text, index) => ({kind: 'warning', text, first: index === 0}));
	const keysWidth = keysWidthOf(rows);
	const descriptionWidth = Math.max(10, textWidth - keysWidth - 1);
	for (const row of rows) {
		if (row.kind === 'title') {
			if (lines.length > 0) {
				lines.push({kind: 'blank'});
			}

			lines.push({kind: 'title', text: row.text});
			continue;
		}

		// Keys longer than their column get a line of their own, so every description starts in one place.
		const keysAlone = [...row.keys].length > keysWidth;
		if (keysAlone) {
			lines.push({kind: 'entry', keys: row.keys, text: ''});
		}

		for (const [index, text] of wrapWords(row.description, descriptionWidth).entries()) {
			lines.push({kind: 'entry', keys: index === 0 && !keysAlone ? row.keys : '', text});
		}
	}

	return lines;
}

export function HelpOverlay({width, height}: {readonly width: number; readonly height: number}) {
	const theme = useTheme();
	const bindings = useBindings();
	const warnings = useBatch(state => state.warnings);
	const rows = helpRows(bindings, useMouseOn());
	const lines = helpLines(warnings, rows, width - 4);
	const view = useScrollWindow(lines.length, Math.max(1, height - chrome));
	const keysWidth = keysWidthOf(rows);
	const close = [bindings.get('zoom.close')?.[0], bindings.get('help.toggle')?.[0]].filter(key => key !== undefined).map(formatKey).join(' or ');
	const scrollKeys = (['scroll.down', 'scroll.pageDown'] as const).map(command => bindings.get(command)?.[0]).filter(key => key !== undefined).map(formatKey).join('/');

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

				if (line.kind === 'title') {
					return <Text key={index} wrap='truncate-end' bold color={theme.colors.text.primary}>{line.text}</Text>;
				}

				return (
					<Text key={index} wrap='truncate-end'>
						<Text color={theme.colors.text.accent}>{line.text === '' ? line.keys : line.keys.padEnd(keysWidth)}</Text>
						{line.text !== '' && <Text color={theme.colors.text.muted}>{` ${line.text}`}</Text>}
					</Text>
				);
			})}
			{view.below > 0 && <Text wrap='truncate-end' color={theme.colors.text.muted}>{`↓ ${view.below} more${scrollKeys === '' ? '' : ` · ${scrollKeys} scrolls`}`}</Text>}
		</Box>
	);
}
