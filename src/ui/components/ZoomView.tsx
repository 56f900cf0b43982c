// One task full-screen: its whole kept output, scrolled from the end, with a search prompt.
import {Box, Text} from 'ink';
import {formatKey, type Bindings} from '../keys.js';
import {routeLine, statusBadge, statusDetail} from '../format.js';
import {zoomVisibleLines} from '../layout.js';
import {displayLine, plainLine, themeHasColour} from '../output-line.js';
import {useBatch} from '../store-context.js';
import {statusColor, useTheme} from '../theme.js';
import type {ZoomState} from '../../state/store.js';

export type ZoomViewProps = {readonly width: number; readonly height: number; readonly bindings: Bindings};

export function ZoomView({width, height, bindings}: ZoomViewProps) {
	const theme = useTheme();
	const zoom = useBatch(state => state.zoom);
	const task = useBatch(state => (state.zoom ? state.tasks[state.zoom.taskId] : undefined));
	const badge = useBatch(state => {
		const view = state.zoom ? state.tasks[state.zoom.taskId] : undefined;
		return view ? statusBadge(view, state.now) : '';
	});
	const detail = useBatch(state => {
		const view = state.zoom ? state.tasks[state.zoom.taskId] : undefined;
		return view ? statusDetail(view, state.now) : null;
	});
	if (!zoom || !task) {
		return null;
	}

	const visible = zoomVisibleLines(height);
	const end = Math.max(0, zoom.scrollback.length - zoom.offsetFromBottom);
	const start = Math.max(0, end - visible);
	const lines = zoom.scrollback.slice(start, end);
	const withColour = themeHasColour(theme);
	const current = zoom.search.matchLine;
	const highlight = theme.colors.search.current;

	return (
		<Box flexDirection='column' width={width} height={height} overflow='hidden'>
			<Box>
				<Box flexGrow={1} flexShrink={1}>
					<Text wrap='truncate-end' bold color={theme.colors.text.primary}>{`${task.id} ${task.title.replace(/\s+/g, ' ')}`}</Text>
				</Box>
				<Box flexShrink={0} marginLeft={1}>
					<Text color={statusColor(theme, task.status)}>{badge}</Text>
				</Box>
			</Box>
			<Text wrap='truncate-end' color={theme.colors.text.muted}>
				{detail === null ? routeLine(task) : `${routeLine(task)} · ${detail}`}
			</Text>
			{/* Why the task landed on this route: the first thing to read when routing goes wrong. */}
			<Text wrap='truncate-end' color={theme.colors.text.muted}>{`why: ${task.reason}`}</Text>
			<Box flexDirection='column' height={visible} overflow='hidden'>
				{lines.length === 0 && <Text color={theme.colors.text.muted}>(no output yet)</Text>}
				{lines.map((line, offset) => {
					const index = start + offset;
					return index === current
						// The match is shown as plain text on one background (inverse without colour),
						// so the line's own colours cannot hide it.
						? <Text key={index} wrap='truncate' backgroundColor={highlight} inverse={highlight === undefined} bold>{plainLine(line)}</Text>
						: <Text key={index} wrap='truncate'>{displayLine(line, withColour)}</Text>;
				})}
			</Box>
			<StatusLine zoom={zoom} start={start} end={end} bottomKey={formatKey(bindings.get('scroll.bottom')?.[0] ?? 'G')}/>
		</Box>
	);
}

function StatusLine({zoom, start, end, bottomKey}: {readonly zoom: ZoomState; readonly start: number; readonly end: number; readonly bottomKey: string}) {
	const theme = useTheme();
	const {search} = zoom;
	if (search.editing) {
		return (
			<Text wrap='truncate-start' color={theme.colors.text.accent}>{`/${search.query}▏`}</Text>
		);
	}

	// Line numbers count every line the task printed, including those no longer kept.
	const firstNumber = zoom.totalLines - zoom.scrollback.length + 1;
	const range = end > start ? `lines ${firstNumber + start}–${firstNumber + end - 1} of ${zoom.totalLines}` : `${zoom.totalLines} lines`;
	const position = zoom.offsetFromBottom === 0 ? `${range} · following the output` : `${range} · ${bottomKey} follows the output`;
	const match = search.query !== '' && search.matchLine !== null ? `match "${search.query}" at line ${firstNumber + search.matchLine} · ` : '';
	return <Text wrap='truncate-end' color={theme.colors.text.muted}>{match + position}</Text>;
}
