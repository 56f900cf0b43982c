// One task on one line, for the list layout: enough to spot the one that needs attention.
import {Box, Text} from 'ink';
import {memo} from 'react';
import {titleLine} from '../text/format.js';
import {useBatch} from '../store-context.js';
import {statusColor, useTheme} from '../theme/theme.js';

/** What the rows on screen show in each column; every row of the list is drawn with the same widths. */
export type RowText = {id: string; badge: string; title: string; route: string; brief: string};

/** Column widths shared by the rows on screen; `brief`: the route column shows routeBrief, not routeLine. */
export type ListColumns = {id: number; badge: number; title: number; route: number; brief: boolean};

/** Blank columns between the badge and the title, and between the title and the route. */
export const columnGap = 2;
// Below this a route column shows too little of the model to be worth its room.
const minRouteWidth = 12;
// A title cut shorter than this no longer says which task it is.
const minTitleWidth = 12;

const widthOf = (text: string) => [...text].length;
const longest = (texts: readonly string[]) => Math.max(0, ...texts.map(widthOf));

/**
 * Columns fitted to what the rows hold, not fixed: the badge as wide as the longest badge (so
 * "attempt 2" is never cut and glued to the title), the title as wide as the longest title,
 * the route right after it. When the full routes do not fit, the brief ones (route and model)
 * do, the titles cut down to minTitleWidth if need be: the model is what the operator scans
 * the list for. When even that does not fit, the route keeps at least half the room.
 */
export function listColumns(rows: readonly RowText[], width: number): ListColumns {
	// "› " + id + " ".
	const id = longest(rows.map(row => row.id)) + 3;
	const badge = Math.min(longest(rows.map(row => row.badge)), Math.max(12, Math.floor(width * 0.3)));
	const room = Math.max(0, width - id - badge - columnGap);
	const title = Math.min(longest(rows.map(row => titleLine(row.title))), room);
	const full = longest(rows.map(row => row.route));
	const brief = longest(rows.map(row => row.brief));
	const routeRoom = room - title - columnGap;
	if (full <= routeRoom) {
		return {id, badge, title, route: full, brief: false};
	}

	if (brief <= routeRoom) {
		return {id, badge, title, route: brief, brief: true};
	}

	const route = Math.min(brief, Math.max(room - columnGap - Math.min(title, minTitleWidth), Math.floor((room - columnGap) / 2)));
	return route < minRouteWidth ? {id, badge, title: room, route: 0, brief: true} : {id, badge, title: room - columnGap - route, route, brief: true};
}

type TaskRowProps = {
	readonly id: string;
	readonly badge: string;
	readonly title: string;
	/** The route column's text; '' when the row has no room for one. */
	readonly route: string;
	readonly width: number;
	readonly focused: boolean;
	readonly idWidth: number;
	readonly badgeWidth: number;
	readonly titleWidth: number;
	readonly routeWidth: number;
};

// Primitive props only, so that memo skips the rows an update did not change.
export const TaskRow = memo(function TaskRow({id, badge, title, route, width, focused, idWidth, badgeWidth, titleWidth, routeWidth}: TaskRowProps) {
	const theme = useTheme();
	const status = useBatch(state => state.tasks[id]?.status);
	if (status === undefined) {
		return null;
	}

	return (
		<Box width={width} height={1} overflow='hidden'>
			<Box width={idWidth} flexShrink={0}>
				{/* The marker shows focus without colour; inverse alone is lost on some terminals. */}
				<Text bold={focused} inverse={focused} color={focused ? theme.colors.text.accent : undefined}>{focused ? '›' : ' '}</Text>
				<Text bold={focused}>{` ${id} `}</Text>
			</Box>
			<Box width={badgeWidth + columnGap} flexShrink={0} paddingRight={columnGap}>
				<Text wrap='truncate' color={statusColor(theme, status)}>{badge}</Text>
			</Box>
			<Box width={titleWidth} flexShrink={0}>
				<Text wrap='truncate-end' bold={focused} color={theme.colors.text.primary}>{titleLine(title)}</Text>
			</Box>
			{routeWidth > 0 && (
				<Box width={routeWidth + columnGap} flexShrink={0} paddingLeft={columnGap}>
					<Text wrap='truncate-end' color={theme.colors.text.muted}>{route}</Text>
				</Box>
			)}
		</Box>
	);
});
