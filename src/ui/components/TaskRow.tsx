// One task on one line, for the list layout: enough to spot the one that needs attention.
import {Box, Text} from 'ink';
import {memo} from 'react';
import {routeLine, statusBadge, titleLine} from '../format.js';
import {useBatch} from '../store-context.js';
import {statusColor, useTheme} from '../theme.js';

// Fits "◐ cancelling 12m05s"; a longer badge (a failure with its exit code) is cut here and
// shown whole in the focused pane below. A fixed width keeps the titles in one column.
const badgeWidth = 22;

/**
 * The width of the route column shared by the rows in `routes`: the longest route, but at most
 * two fifths of what the id and the badge leave (the title gets the room); 0 when too narrow to help.
 */
export function routeColumnWidth(routes: readonly string[], width: number): number {
	const routeWidth = Math.min(Math.max(0, ...routes.map(route => [...route].length)), Math.floor((width - 6 - badgeWidth) * 0.4));
	return routeWidth > 8 ? routeWidth : 0;
}

export const TaskRow = memo(function TaskRow({id, width, focused, routeWidth}: {readonly id: string; readonly width: number; readonly focused: boolean; readonly routeWidth: number}) {
	const theme = useTheme();
	const task = useBatch(state => state.tasks[id]);
	const badge = useBatch(state => {
		const view = state.tasks[id];
		return view ? statusBadge(view, state.now) : '';
	});
	if (!task) {
		return null;
	}

	const route = routeLine(task);

	return (
		<Box width={width} height={1} overflow='hidden'>
			<Box flexShrink={0}>
				{/* The marker shows focus without colour; inverse alone is lost on some terminals. */}
				<Text bold={focused} inverse={focused} color={focused ? theme.colors.text.accent : undefined}>{focused ? '›' : ' '}</Text>
				<Text bold={focused}>{` ${task.id} `}</Text>
			</Box>
			<Box width={badgeWidth} flexShrink={0}>
				<Text wrap='truncate' color={statusColor(theme, task.status)}>{badge}</Text>
			</Box>
			{/* Basis 0: the title takes what the fixed columns leave, however long it is. */}
			<Box flexGrow={1} flexShrink={1} flexBasis={0}>
				<Text wrap='truncate-end' bold={focused} color={theme.colors.text.primary}>{titleLine(task.title)}</Text>
			</Box>
			{routeWidth > 0 && (
				<Box width={routeWidth + 2} flexShrink={0} paddingLeft={2}>
					<Text wrap='truncate-end' color={theme.colors.text.muted}>{route}</Text>
				</Box>
			)}
		</Box>
	);
});
