// `$`: the batch's spend per route, per model and in total (issue 25), from the store alone — the
// events the runner host sends every client — so an attached dashboard shows what the host knows.
// The lines are ui/spend-table.ts's, which `hermes-delegate spend` prints too. What does not fit
// scrolls, as the help does.
import {Box, Text, useInput, useStdin} from 'ink';
import {wheelDelta} from '../mouse/sgr.js';
import {useState} from 'react';
import {useShallow} from 'zustand/shallow';
import {spendTable} from '../../state/spend-view.js';
import {keyContext} from '../keys/actions.js';
import {formatKey} from '../keys/key-descriptor.js';
import {matchCommand, type Bindings, type Command} from '../keys/keys.js';
import {spendTableLines, type SpendTableLine} from '../spend-table.js';
import {useBatch, useBatchStore} from '../store-context.js';
import {useTheme} from '../theme/theme.js';
import {helpWindow} from './HelpOverlay.js';

// Border top and bottom, plus the title line.
const chrome = 3;

export function SpendOverlay({width, height, bindings}: {readonly width: number; readonly height: number; readonly bindings: Bindings}) {
	const theme = useTheme();
	const store = useBatchStore();
	const {isRawModeSupported} = useStdin();
	// Flattened to strings: the overlay re-renders when what it says changes, not on every output tick.
	const flat = useBatch(useShallow(state => spendTableLines(spendTable(state), width - 4).map(line => `${line.kind}\t${line.text}`)));
	const lines = flat.map(entry => {
		const tab = entry.indexOf('\t');
		return {kind: entry.slice(0, tab) as SpendTableLine['kind'], text: entry.slice(tab + 1)};
	});
	const [offset, setOffset] = useState(0);
	const visible = Math.max(1, height - chrome);
	const view = helpWindow(lines.length, visible, offset);

	useInput((input, key) => {
		if (keyContext(store.getState()) !== 'spend') return;
		const step: Partial<Record<Command, number>> = {'scroll.up': -1, 'scroll.down': 1, 'scroll.pageUp': -(visible - 2), 'scroll.pageDown': visible - 2};
		const command = matchCommand(bindings, 'spend', input, key);
		const delta = wheelDelta(input) ?? (command === undefined ? undefined : step[command]);
		if (delta !== undefined) {
			setOffset(previous => {
				const from = helpWindow(lines.length, visible, previous);
				return Math.min(from.maxOffset, Math.max(0, from.start + (delta > 0 ? Math.max(1, delta) : Math.min(-1, delta))));
			});
		}
	}, {isActive: isRawModeSupported});

	const close = [bindings.get('zoom.close')?.[0], bindings.get('spend.toggle')?.[0]].filter(key => key !== undefined).map(formatKey).join(' or ');
	const colour = (kind: SpendTableLine['kind']) => (kind === 'legend' || kind === 'head' ? theme.colors.text.muted : theme.colors.text.primary);

	return (
		<Box flexDirection='column' width={width} height={height} overflow='hidden' borderStyle='round' borderColor={theme.colors.border.focused} paddingX={1}>
			<Text wrap='truncate-end' bold color={theme.colors.header.title}>{`Spend (Hermes's state.db, every attempt) · ${close} closes`}</Text>
			{view.above > 0 && <Text wrap='truncate-end' color={theme.colors.text.muted}>{`↑ ${view.above} more`}</Text>}
			{lines.slice(view.start, view.end).map((line, index) => (
				<Text key={index} wrap='truncate-end' bold={line.kind === 'title' || line.kind === 'total'} color={colour(line.kind)}>{line.text === '' ? ' ' : line.text}</Text>
			))}
			{view.below > 0 && <Text wrap='truncate-end' color={theme.colors.text.muted}>{`↓ ${view.below} more`}</Text>}
		</Box>
	);
}
