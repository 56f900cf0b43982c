// One task in a bordered pane: what it is, where it was routed, how it is doing, its last output.
// Memoised and subscribed to its own task only, so output in one pane re-renders that pane alone.
import {Box, Text} from 'ink';
import {memo} from 'react';
import {routeLine, titleLine, wrapWords} from '../text/format.js';
import {useBadge, useStatusDetail} from '../hooks/use-status-text.js';
import {minTailLines, paneChrome, paneInset, tailLinesFor} from '../layout.js';
import {foldedLine} from '../pane-fold.js';
import {displayLine, fitLine, plainLine, themeHasColour} from '../text/output-line.js';
import {activityLine} from '../text/activity.js';
import {paneSpendLine} from '../text/spend.js';
import {useShallow} from 'zustand/shallow';
import {isActive} from '../../core/types.js';
import {useBatch} from '../store-context.js';
import {statusColor, useTheme} from '../theme/theme.js';
import type {Theme, ThemeColour} from '../../core/theme/themes.js';
import type {TaskStatus} from '../../core/types.js';

export type TaskPaneProps = {
	readonly id: string;
	readonly width: number;
	readonly height: number;
	readonly focused: boolean;
};

export const TaskPane = memo(function TaskPane({id, width, height, focused}: TaskPaneProps) {
	const theme = useTheme();
	const task = useBatch(state => state.tasks[id]);
	const badge = useBadge(id);
	const detail = useStatusDetail(id);
	// Strings: the pane re-renders when the seconds it shows change, not on every tick. A stuck
	// pane's detail already says how long it has been quiet: the activity line would repeat it.
	const [spendText, activityText, folded] = useBatch(useShallow(state => {
		const view = state.tasks[id];
		if (!view) return [null, null, null];
		const spendAt = (room: number) => paneSpendLine(view.spend, view.startedAt !== null, room, !isActive(view.status));
		const activityAt = (room: number) => (view.stuckSince === null ? activityLine(view, state.now, room) : null);
		const spend = spendAt(width - paneInset);
		const activity = activityAt(width - paneInset);
		return [spend, activity, spend !== null && activity !== null ? foldedLine(room => spendAt(room)!, room => activityAt(room)!, width - paneInset) : null];
	}));
	if (!task) {
		return null;
	}

	const colour = statusColor(theme, task.status);
	const linesOf = (text: string | null) => (text === null ? 0 : Math.min(maxDetailLines(task.status, height), wrapWords(text, width - paneInset).length));
	const detailLines = linesOf(detail);
	// Two rows of spend and activity would leave fewer than minTailLines of output: one row holds both.
	const fold = folded !== null && tailLinesFor(height, detailLines + 2) < minTailLines;
	const spendLine = fold ? folded : spendText;
	// The spend and activity lines take the output's lines, so the pane's plan (layout.ts) stays as it
	// is; the activity line only while a line of output is left beside it.
	const fixedLines = detailLines + (spendLine === null ? 0 : 1);
	const activity = !fold && activityText !== null && tailLinesFor(height, fixedLines + 1) >= 1 ? activityText : null;
	const tailCount = tailLinesFor(height, fixedLines + (activity === null ? 0 : 1));
	// The error line is usually the last stderr line. Shown whole (wrapped) as the detail, it is left
	// out of the tail rather than shown twice, once cut at the pane's width.
	const repeated = task.status === 'failed' && detail !== null && detail !== '' && tailCount > 0 && task.tail.slice(-tailCount).some(line => plainLine(line).includes(detail));
	const tailSource = repeated ? task.tail.filter(line => !plainLine(line).includes(detail)) : task.tail;
	const tail = tailCount > 0 ? tailSource.slice(-tailCount) : [];
	const withColour = themeHasColour(theme);

	return (
		<Box
			flexDirection='column'
			width={width}
			height={height}
			overflow='hidden'
			paddingX={1}
			// A heavier border marks focus even where there is no colour.
			borderStyle={focused ? 'bold' : 'round'}
			borderColor={focused ? theme.colors.border.focused : theme.colors.border.default}
		>
			<Box>
				<Box flexGrow={1} flexShrink={1}>
					<Text wrap='truncate-end' bold={focused} color={theme.colors.text.primary}>{`${task.id} ${titleLine(task.title)}`}</Text>
				</Box>
				<Box flexShrink={0} marginLeft={1}>
					<Text wrap='truncate' color={colour} bold={task.status === 'failed'}>{badge}</Text>
				</Box>
			</Box>
			<Text wrap='truncate-end' color={theme.colors.text.muted}>{routeLine(task)}</Text>
			{spendLine !== null && <Text wrap='truncate-end' color={theme.colors.text.muted}>{spendLine}</Text>}
			{activity !== null && <Text wrap='truncate-end' color={theme.colors.text.muted}>{activity}</Text>}
			{detail !== null && (
				<Box height={detailLines} overflow='hidden'>
					<Text color={detailColour(theme, task.status)}>{detail}</Text>
				</Box>
			)}
			{tail.length > 0 && (
				<Text>{tail.map(line => fitLine(displayLine(line, withColour), width - paneInset)).join('\n')}</Text>
			)}
		</Box>
	);
});

/**
 * The countdown and the error are worth a second line in a narrow pane; more would crowd out the
 * output. A refused task has no output: its reason gets every line the pane has.
 */
function maxDetailLines(status: TaskStatus, height: number): number {
	return status === 'refused' ? Math.max(0, height - paneChrome) : 2;
}

function detailColour(theme: Theme, status: TaskStatus): ThemeColour {
	// A countdown and a stuck mark want attention; a waiting queued task is only information.
	if (status === 'cancelling' || status === 'running') {
		return theme.colors.text.warning;
	}

	if (status === 'queued') {
		return theme.colors.text.muted;
	}

	return status === 'refused' ? theme.colors.text.muted : theme.colors.text.error;
}
