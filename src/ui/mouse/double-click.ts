// Two presses on the same task close together are a double click (zoom). The clock is passed in,
// so the rule is a pure function of what the operator did.

/** Between the presses of a double click: the common desktop default. */
export const doubleClickMs = 500;

export type LastClick = {taskId: string; at: number};

export function isDoubleClick(last: LastClick | undefined, taskId: string, at: number): boolean {
	return last !== undefined && last.taskId === taskId && at - last.at >= 0 && at - last.at <= doubleClickMs;
}
