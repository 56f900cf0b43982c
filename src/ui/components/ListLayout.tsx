// The compact layout for many tasks or a small terminal: a line per task, and the focused
// task's pane with its output below.
import {Box} from 'ink';
import type {ListPlan} from '../layout.js';
import {pageStart} from '../layout.js';
import {useBatch} from '../store-context.js';
import {TaskPane} from './TaskPane.js';
import {TaskRow} from './TaskRow.js';

export function ListLayout({plan}: {readonly plan: ListPlan}) {
	const order = useBatch(state => state.order);
	const focusedId = useBatch(state => state.focusedId);
	const first = pageStart(order.indexOf(focusedId ?? ''), plan.listHeight);
	const visible = order.slice(first, first + plan.listHeight);

	return (
		<Box flexDirection='column'>
			<Box flexDirection='column' height={plan.listHeight}>
				{visible.map(id => <TaskRow key={id} id={id} width={plan.width} focused={id === focusedId}/>)}
			</Box>
			{plan.paneHeight > 0 && focusedId !== null && (
				<TaskPane id={focusedId} width={plan.width} height={plan.paneHeight} focused/>
			)}
		</Box>
	);
}
