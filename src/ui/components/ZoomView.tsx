// One task full-screen: its whole kept output, scrolled from the end, long lines wrapped (or cut
// and scrolled sideways), with a search prompt and line numbers while searching.
import {Box, Text} from 'ink';
import {formatKey} from '../keys/key-descriptor.js';
import {useBindings} from '../keys/bindings-context.js';
import {routeLine, titleLine} from '../text/format.js';
import {useBadge, useStatusDetail} from '../hooks/use-status-text.js';
import {zoomVisibleLines} from '../layout.js';
import {themeHasColour} from '../text/output-line.js';
import {useBatch} from '../store-context.js';
import {statusColor, useTheme} from '../theme/theme.js';
import {searchPattern} from '../../core/output/visible-text.js';
import {zoomLayer, zoomOf} from '../../state/overlay.js';
import type {BatchState} from '../../state/store-types.js';
import type {ZoomState} from '../../state/zoom.js';
import type {TextField} from '../../state/text-field.js';
import {maxOffset} from '../../state/zoom.js';
import {zoomWindow} from '../text/zoom-rows.js';
import {ZoomRowText} from './ZoomRowText.js';

export type ZoomViewProps = {readonly width: number; readonly height: number};

export function ZoomView({width, height}: ZoomViewProps) {
	const bindings = useBindings();
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
	const max = maxOffset(zoom.scrollback.length, visible);
	const offset = Math.min(zoom.offsetFromBottom, max);
	const withColour = themeHasColour(theme);
	// While the query is being typed it is not a search yet: nothing is marked until Enter.
	const pattern = searching || zoom.search.query === '' ? undefined : searchPattern(zoom.search.query);
	// Line numbers in the margin while a search is on: "match at line 812" is then found by eye.
	const numbers = pattern === undefined ? 0 : String(zoom.first + zoom.scrollback.length).length + 1;
	const textWidth = Math.max(1, width - numbers);
	const rows = zoomWindow({
		zoom, end: Math.max(0, zoom.scrollback.length - offset), atTop: offset > 0 && offset >= max, rows: visible, width: textWidth,
	});
	const colours = {current: theme.colors.search.current, match: theme.colors.search.match, muted: theme.colors.text.muted};

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
				{rows.rows.length === 0 && <Text color={theme.colors.text.muted}>(no output yet)</Text>}
				{rows.rows.map((row, at) => {
					const previous = rows.rows[at - 1];
					const number = numbers === 0 ? '' : `${(previous?.index === row.index ? '' : String(zoom.first + row.index + 1)).padStart(numbers - 1)} `;
					return (
						<Text key={`${row.index}:${row.from}`} wrap='truncate'>
							{number !== '' && <Text color={colours.muted}>{number}</Text>}
							<ZoomRowText line={zoom.scrollback[row.index] ?? ''} row={row} cut={!zoom.long.wrap} current={row.index === zoom.search.matchLine} pattern={pattern} colour={withColour} colours={colours}/>
						</Text>
					);
				})}
			</Box>
			<StatusLine
				zoom={zoom}
				searching={searching}
				view={{start: rows.start, end: rows.end, following: offset === 0, cut: zoom.long.wrap ? undefined : rows.column}}
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
	readonly view: {start: number; end: number; following: boolean; cut: number | undefined};
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
	// Cut lines say so, and how far sideways the view is: a line that seems to end may go on.
	const cut = view.cut === undefined ? undefined : view.cut > 0 ? `cut · from column ${view.cut + 1}` : 'cut';
	const parts = [match, cut, resume === undefined ? undefined : `continue: ${resume}`, range, dropped, follow].filter(part => part !== undefined);
	// The follow hint goes first when the line is too long: it is in the help as well, the log path is not.
	const text = [...parts.join(' · ')].length > width && dropped ? parts.slice(0, -1).join(' · ') : parts.join(' · ');
	return <Text wrap='truncate-end' color={theme.colors.text.muted}>{text}</Text>;
}

function zoomedTask(state: BatchState) {
	const zoom = zoomOf(state.overlay);
	return zoom ? state.tasks[zoom.taskId] : undefined;
}
