// The compact layout for many tasks or a small terminal: a line per task, and the focused
// task's pane with its output below.
import {Box, Text} from 'ink';
import {useShallow} from 'zustand/shallow';
import {routeBrief, routeLine, statusBadge} from '../text/format.js';
import type {ListPlan} from '../layout.js';
import {listWindow} from '../layout.js';
import {useBatch} from '../store-context.js';
import {shownOrder} from '../../state/task-order.js';
import {useTheme} from '../theme/theme.js';
import {TaskPane} from './TaskPane.js';
import {listColumns, TaskRow, type RowText} from './TaskRow.js';

export function ListLayout({plan}: {readonly plan: ListPlan}) {
	// Sorted and filtered as the operator asked (s, f); strings, so an update that moves nothing renders nothing.
	const order = useBatch(useShallow(shownOrder));
	const focusedId = useBatch(state => state.focusedId);
	const theme = useTheme();
	const shown = listWindow(order.indexOf(focusedId ?? ''), order.length, plan.listHeight);
	const visible = order.slice(shown.first, shown.first + shown.count);
	// Flattened to strings so that a store update which changes no row renders nothing; the
	// columns are fitted to the rows on screen, so every column starts at the same place.
	const flat = useBatch(useShallow(state => visible.flatMap(id => {
		const task = state.tasks[id];
		return task ? [id, statusBadge(task, state.now), task.title, routeLine(task), routeBrief(task)] : [];
	})));
	const rows: RowText[] = [];
	for (let index = 0; index + 4 < flat.length; index += 5) {
		rows.push({id: flat[index]!, badge: flat[index + 1]!, title: flat[index + 2]!, route: flat[index + 3]!, brief: flat[index + 4]!});
	}

	const columns = listColumns(rows, plan.width);

	return (
		<Box flexDirection='column'>
			<Box flexDirection='column' height={plan.listHeight}>
				{shown.markers && shown.above > 0 && <Text wrap='truncate-end' color={theme.colors.text.muted}>{`  ↑ ${shown.above} more`}</Text>}
				{rows.map(row => (
					<TaskRow
						key={row.id}
						id={row.id}
						badge={row.badge}
						title={row.title}
						route={columns.route === 0 ? '' : columns.brief ? row.brief : row.route}
						width={plan.width}
						focused={row.id === focusedId}
						idWidth={columns.id}
						badgeWidth={columns.badge}
						titleWidth={columns.title}
						routeWidth={columns.route}
					/>
				))}
				{shown.markers && shown.below > 0 && <Text wrap='truncate-end' color={theme.colors.text.muted}>{`  ↓ ${shown.below} more`}</Text>}
			</Box>
			{plan.paneHeight > 0 && focusedId !== null && (
				<TaskPane id={focusedId} width={plan.width} height={plan.paneHeight} focused/>
			)}
		</Box>
	);
}
