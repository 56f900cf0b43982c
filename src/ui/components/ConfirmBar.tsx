// The question before anything is stopped, saying exactly what will be sent to whom.
import {Box, Text} from 'ink';
import type {BatchState} from '../../state/store-types.js';
import {modeNames} from '../../state/steer.js';
import {formatElapsed} from '../../core/text/durations.js';
import {oneLine, truncate, wrapWords} from '../text/format.js';
import {formatKey} from '../keys/key-descriptor.js';
import {useBindings} from '../keys/bindings-context.js';
import type {Bindings} from '../keys/keys.js';
import {useBatch} from '../store-context.js';
import {useTheme} from '../theme/theme.js';

// Long titles are cut here so the explanation after them survives on narrow terminals.
const titleWidth = 40;

// The whole question is the point of asking: it may take this many lines rather than be cut.
// (The answer keys are in the footer as well, for the terminal too narrow even for that.)
const maxLines = 3;

export function ConfirmBar({width}: {readonly width: number}) {
	const theme = useTheme();
	const bindings = useBindings();
	const question = useBatch(state => confirmQuestion(state));
	const action = useBatch(state => (state.overlay?.kind === 'confirm' ? state.overlay.question.action : undefined));
	// Every hook before the early return: React needs the same hooks in the same order on every render.
	const detachable = useBatch(confirmDetachable);
	if (question === null) {
		return null;
	}

	const answer = answerKeys(bindings, detachable);
	const lines = confirmText(question, width, bindings, detachable);
	const colour = action === 'cancel' ? theme.colors.text.warning : theme.colors.text.error;
	return (
		<Box flexDirection='column' width={width} height={lines.length} overflow='hidden'>
			{lines.map((line, index) => {
				const last = index === lines.length - 1 && line.endsWith(answer);
				return (
					<Text key={index} bold wrap='truncate-end'>
						<Text color={colour}>{last ? line.slice(0, -answer.length) : line}</Text>
						{last && <Text color={theme.colors.text.accent}>{answer}</Text>}
					</Text>
				);
			})}
		</Box>
	);
}

/** y/n, and /d at the quit question of a batch in a runner host (detach: it runs on). */
function answerKeys(bindings: Bindings, detachable = false): string {
	const yesNo = `${formatKey(bindings.get('confirm.yes')?.[0] ?? 'y')}/${formatKey(bindings.get('confirm.no')?.[0] ?? 'n')}`;
	return detachable ? `${yesNo}/${formatKey(bindings.get('app.detach')?.[0] ?? 'd')}` : yesNo;
}

/** The question and its answer keys, word-wrapped to the width: what the bar shows, line by line. */
export function confirmText(question: string | null, width: number, bindings: Bindings, detachable = false): string[] {
	return question === null ? [] : wrapWords(`${question} ${answerKeys(bindings, detachable)}`, width).slice(0, maxLines);
}

/** The quit question of a batch in a runner host: it has a third answer, detach (the batch runs on). */
export function confirmDetachable(state: BatchState): boolean {
	return state.canDetach && state.overlay?.kind === 'confirm' && state.overlay.question.action === 'quit';
}

/** The whole question, or null when nothing is being confirmed. */
export function confirmQuestion(state: BatchState): string | null {
	if (state.overlay?.kind !== 'confirm') {
		return null;
	}

	const confirm = state.overlay.question;
	if (confirm.action === 'remove-route') {
		const name = confirm.routeName;
		const load = Object.values(state.tasks).filter(task => task.routeName === name && task.status === 'queued').length;
		return `Remove route "${name}" from config.yaml?${load > 0 ? ` Its ${load} queued ${load === 1 ? 'task moves' : 'tasks move'} to another route.` : ''}`;
	}

	if (confirm.action === 'switch-mode') {
		const queued = Object.values(state.tasks).filter(task => task.status === 'queued').length;
		const replan = queued === 0 ? 'no queued task re-plans' : `${queued} queued ${queued === 1 ? 'task re-plans' : 'tasks re-plan'} onto it`;
		return `Switch routing from ${modeNames[state.mode]} to ${modeNames[confirm.mode]}? It is saved into config.yaml, which Hermes itself reads too; ${replan}.`;
	}

	const grace = formatElapsed(state.graceMs);
	if (confirm.action === 'quit') {
		let running = 0;
		let queued = 0;
		for (const id of state.order) {
			const status = state.tasks[id]?.status;
			running += status === 'running' || status === 'cancelling' ? 1 : 0;
			queued += status === 'queued' ? 1 : 0;
		}

		const skipped = queued === 0 ? '' : `${queued} queued ${queued === 1 ? 'task' : 'tasks'} will not start`;
		// The third answer (d) of a batch in a runner host: the batch goes on without this dashboard.
		const detach = state.canDetach ? ' Or detach: the batch runs on.' : '';
		if (running === 0) {
			return skipped ? `Quit? ${skipped}.${detach}` : 'Quit? Nothing is running any more.';
		}

		const stopped = `Stops ${running} running ${running === 1 ? 'task' : 'tasks'}: SIGTERM to each process group, SIGKILL after ${grace}`;
		return `Quit? ${stopped}${skipped ? `; ${skipped}` : ''}.${detach}`;
	}

	const task = state.tasks[confirm.taskId];
	const who = task ? `${task.id} '${truncate(oneLine(task.title), titleWidth)}'` : 'the task';
	// A queued task has no process to signal (and K has no grace period to skip).
	if (task?.status === 'queued') {
		return `Cancel ${who}? It is still queued: it will not be started.`;
	}

	// On a batch across hosts the group is on the worker that runs it: the operator should know where.
	const group = task?.host ? `its process group on worker ${task.host}` : 'its process group';
	return confirm.action === 'kill'
		? `Kill ${who} now? SIGKILL to ${group}, no grace period.`
		: `Cancel ${who}? SIGTERM to ${group}, SIGKILL after ${grace}.`;
}
