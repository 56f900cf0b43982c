// y: the task's answer to the terminal's clipboard (docs/dashboard.md). Whether the terminal takes an OSC 52
// write cannot be known (many ignore it, tmux only with set-clipboard), so the notice always says
// where else the text is: the command that prints the task's log, and results.json once written.
import type {BatchState} from './store-types.js';
import {targetTaskId} from './overlay.js';
import {terminalSafe} from '../core/output/visible-text.js';

export function copyRequest(state: BatchState): {text: string; notice: string} | {notice: string} {
	const id = targetTaskId(state);
	const task = id ? state.tasks[id] : undefined;
	if (!id || !task) {
		return {notice: 'no task to copy from'};
	}

	const logs = `hermes-delegate logs ${state.runId} ${id}`;
	if (task.answer === null) {
		return {notice: `${id} has no answer to copy (${task.status}); its output: ${logs}`};
	}

	// As untrusted as the output: nothing of it may act on the terminal that pastes it.
	const text = terminalSafe(task.answer);
	const chars = [...text].length;
	return {
		text,
		notice: `${id}'s answer (${chars} character${chars === 1 ? '' : 's'}) sent to the clipboard (OSC 52); if your terminal ignores that, it is in \`${logs}\` and in ${state.runDir}/results.json when the batch ends`,
	};
}
