// Panes in rows. Normally every task is on screen; a grid the operator forces on a small
// terminal shows the page of rows that holds the focused pane.
import {Box} from 'ink';
import {useShallow} from 'zustand/shallow';
import type {GridPlan} from '../layout.js';
import {pageStart} from '../layout.js';
import {useBatch} from '../store-context.js';
import {shownOrder} from '../../state/task-order.js';
import {TaskPane} from './TaskPane.js';

export function GridLayout({plan}: {readonly plan: GridPlan}) {
	// Sorted and filtered as the operator asked (s, f); strings, so an update that moves nothing renders nothing.
	const order = useBatch(useShallow(shownOrder));
	const focusedId = useBatch(state => state.focusedId);
	const focusedRow = Math.floor(Math.max(0, order.indexOf(focusedId ?? '')) / plan.columns);
	const firstRow = pageStart(focusedRow, plan.visibleRows);
	const rows: string[][] = [];
	for (let row = firstRow; row < Math.min(plan.totalRows, firstRow + plan.visibleRows); row++) {
		rows.push(order.slice(row * plan.columns, (row + 1) * plan.columns));
	}

	return (
		<Box flexDirection='column'>
			{rows.map(ids => (
				<Box key={ids[0]} height={plan.paneHeight}>
					{ids.map(id => <TaskPane key={id} id={id} width={plan.paneWidth} height={plan.paneHeight} focused={id === focusedId}/>)}
				</Box>
			))}
		</Box>
	);
}
