// The compact layout for many tasks or a small terminal: a line per task, and the focused
// task's pane with its output below.
import {Box, Text} from 'ink';
import {useShallow} from 'zustand/shallow';
import {routeLine} from '../format.js';
import type {ListPlan} from '../layout.js';
import {listWindow} from '../layout.js';
import {useBatch} from '../store-context.js';
import {useTheme} from '../theme.js';
import {TaskPane} from './TaskPane.js';
import {routeColumnWidth, TaskRow} from './TaskRow.js';

export function ListLayout({plan}: {readonly plan: ListPlan}) {
	const order = useBatch(state => state.order);
	const focusedId = useBatch(state => state.focusedId);
	const theme = useTheme();
	const shown = listWindow(order.indexOf(focusedId ?? ''), order.length, plan.listHeight);
	const visible = order.slice(shown.first, shown.first + shown.count);
	// One route column for the rows on screen, so every route starts at the same place.
	const routes = useBatch(useShallow(state => visible.map(id => {
		const task = state.tasks[id];
		return task ? routeLine(task) : '';
	})));
	const routeWidth = routeColumnWidth(routes, plan.width);

	return (
		<Box flexDirection='column'>
			<Box flexDirection='column' height={plan.listHeight}>
				{shown.markers && shown.above > 0 && <Text wrap='truncate-end' color={theme.colors.text.muted}>{`  ↑ ${shown.above} more`}</Text>}
				{visible.map(id => <TaskRow key={id} id={id} width={plan.width} focused={id === focusedId} routeWidth={routeWidth}/>)}
				{shown.markers && shown.below > 0 && <Text wrap='truncate-end' color={theme.colors.text.muted}>{`  ↓ ${shown.below} more`}</Text>}
			</Box>
			{plan.paneHeight > 0 && focusedId !== null && (
				<TaskPane id={focusedId} width={plan.width} height={plan.paneHeight} focused/>
			)}
		</Box>
	);
}
