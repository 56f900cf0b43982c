// One task full-screen: its whole kept output, scrolled from the end, with a search prompt.
import {Box, Text} from 'ink';
import {formatKey} from '../keys/key-descriptor.js';
import type {Bindings} from '../keys/keys.js';
import {routeLine, titleLine} from '../format.js';
import {useBadge, useStatusDetail} from '../hooks/use-status-text.js';
import {zoomVisibleLines} from '../layout.js';
import {displayLine, plainLine, themeHasColour} from '../output-line.js';
import {useBatch} from '../store-context.js';
import {statusColor, useTheme} from '../theme/theme.js';
import {matchParts, searchPattern} from '../../core/output/visible-text.js';
import {zoomLayer, zoomOf} from '../../state/overlay.js';
import type {BatchState} from '../../state/store-types.js';
import type {ZoomState} from '../../state/zoom.js';
import type {TextField} from '../../state/text-field.js';
import {maxOffset} from '../../state/zoom.js';

export type ZoomViewProps = {readonly width: number; readonly height: number; readonly bindings: Bindings};

export function ZoomView({width, height, bindings}: ZoomViewProps) {
	const theme = useTheme();
	const zoom = useBatch(state => zoomOf(state.overlay));
	const searching = useBatch(state => zoomLayer(state.overlay)?.searching ?? null);
	const task = useBatch(state => zoomedTask(state));
	const badge = useBadge(zoom?.taskId);
	const detail = useStatusDetail(zoom?.taskId);
	const runId = useBatch(state => state.runId);
	if (!zoom || !task) {
		return null;
	}

	const visible = zoomVisibleLines(height);
	// The store keeps the view full for the size it last knew; a taller terminal since then must not show a gap.
	const offset = Math.min(zoom.offsetFromBottom, maxOffset(zoom.scrollback.length, visible));
	const end = Math.max(0, zoom.scrollback.length - offset);
	const start = Math.max(0, end - visible);
	const lines = zoom.scrollback.slice(start, end);
	const withColour = themeHasColour(theme);
	const current = zoom.search.matchLine;
	const highlight = theme.colors.search.current;
	const otherMatch = theme.colors.search.match;
	// While the query is being typed it is not a search yet: nothing is marked until Enter.
	const pattern = searching || zoom.search.query === '' ? undefined : searchPattern(zoom.search.query);

	return (
		<Box flexDirection='column' width={width} height={height} overflow='hidden'>
			<Box>
				<Box flexGrow={1} flexShrink={1}>
					<Text wrap='truncate-end' bold color={theme.colors.text.primary}>{`${task.id} ${titleLine(task.title)}`}</Text>
				</Box>
				<Box flexShrink={0} marginLeft={1}>
					<Text color={statusColor(theme, task.status)}>{badge}</Text>
				</Box>
			</Box>
			<Text wrap='truncate-end' color={theme.colors.text.muted}>
				{/* A refused task's detail is its reason, which the line below gives. */}
				{detail === null || task.status === 'refused' ? routeLine(task) : `${routeLine(task)} · ${detail}`}
			</Text>
			{/* Why the task landed on this route: the first thing to read when routing goes wrong. */}
			<Text wrap='truncate-end' color={theme.colors.text.muted}>{`why: ${task.reason}`}</Text>
			<Box flexDirection='column' height={visible} overflow='hidden'>
				{lines.length === 0 && <Text color={theme.colors.text.muted}>(no output yet)</Text>}
				{lines.map((line, offset) => {
					const index = start + offset;
					if (index === current) {
						// The current match is shown as plain text on one background (inverse without
						// colour), so the line's own colours cannot hide it.
						return <Text key={index} wrap='truncate' backgroundColor={highlight} inverse={highlight === undefined} bold>{plainLine(line)}</Text>;
					}

					const parts = pattern === undefined ? undefined : matchParts(line, pattern);
					if (parts === undefined || !parts.some(part => part.match)) {
						return <Text key={index} wrap='truncate'>{displayLine(line, withColour)}</Text>;
					}

					// Other matches: only the matched text is marked (on the theme's search.match
					// background), on a plain line for the same reason.
					return (
						<Text key={index} wrap='truncate'>
							{parts.map((part, at) => (part.match
								? <Text key={at} backgroundColor={otherMatch} inverse={otherMatch === undefined} bold underline>{part.text}</Text>
								: part.text))}
						</Text>
					);
				})}
			</Box>
			<StatusLine
				zoom={zoom}
				searching={searching}
				view={{start, end, following: offset === 0}}
				width={width}
				logCommand={`${runId} ${zoom.taskId}`}
				resume={task.sessionId ? `hermes -p ${task.profile ?? 'default'} --resume ${task.sessionId}` : undefined}
				bottomKey={formatKey(bindings.get('scroll.bottom')?.[0] ?? 'G')}
			/>
		</Box>
	);
}

type StatusLineProps = {
	readonly zoom: ZoomState;
	/** The search prompt's field, while a query is typed. */
	readonly searching: TextField | null;
	readonly view: {start: number; end: number; following: boolean};
	readonly width: number;
	/** `RUN TASK` for `hermes-delegate logs`, which prints the task's whole log made safe. */
	readonly logCommand: string;
	readonly bottomKey: string;
	/** How to continue this subagent's Hermes session, once it has one. */
	readonly resume?: string | undefined;
};

function StatusLine({zoom, searching, view, width, logCommand, bottomKey, resume}: StatusLineProps) {
	const theme = useTheme();
	const {search} = zoom;
	if (searching) {
		// The prompt's cursor is a thin bar between characters, where typing goes in.
		const characters = [...searching.value];
		const cursor = Math.min(Math.max(0, searching.cursor), characters.length);
		return (
			<Text wrap='truncate-start' color={theme.colors.text.accent}>{`/${characters.slice(0, cursor).join('')}▏${characters.slice(cursor).join('')}`}</Text>
		);
	}

	// Line numbers count every line the task printed, including those no longer kept; a line still
	// being written (no newline yet) is shown and numbered after the complete ones.
	const firstNumber = zoom.first + 1;
	const shownLines = Math.max(zoom.totalLines, zoom.first + zoom.scrollback.length);
	const {start, end} = view;
	const range = end > start ? `lines ${firstNumber + start}–${firstNumber + end - 1} of ${shownLines}` : `${shownLines} lines`;
	const match = search.query !== '' && search.matchLine !== null ? `match "${search.query}" at line ${firstNumber + search.matchLine}` : undefined;
	// Only the newest lines are kept in memory; the operator must learn where the rest went.
	// The logs command, not the file: `tail -f` on the byte-exact log would replay what the agent
	// printed (escape sequences included) into the operator's terminal.
	const dropped = firstNumber > 1 ? `lines 1–${firstNumber - 1}: hermes-delegate logs ${logCommand}` : undefined;
	const follow = view.following ? 'following the output' : `${bottomKey} follows the output`;
	const parts = [match, resume === undefined ? undefined : `continue: ${resume}`, range, dropped, follow].filter(part => part !== undefined);
	// The follow hint goes first when the line is too long: it is in the help as well, the log path is not.
	const text = [...parts.join(' · ')].length > width && dropped ? parts.slice(0, -1).join(' · ') : parts.join(' · ');
	return <Text wrap='truncate-end' color={theme.colors.text.muted}>{text}</Text>;
}

function zoomedTask(state: BatchState) {
	const zoom = zoomOf(state.overlay);
	return zoom ? state.tasks[zoom.taskId] : undefined;
}
