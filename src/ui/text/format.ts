// Pure text for the dashboard: durations, status badges, route labels. Every status has a symbol
// and a word, so it reads the same under the no-color theme as in colour.
import type {TaskStatus} from '../../core/types.js';
import {failureLine, type TaskView} from '../../state/task-view.js';
import {formatElapsed} from '../../core/text/durations.js';
import {maxMeasuredLength, measurable} from '../../core/output/visible-text.js';

export const statusSymbols: Readonly<Record<TaskStatus, string>> = {
	queued: '○',
	running: '●',
	cancelling: '◐',
	succeeded: '✓',
	failed: '✗',
	cancelled: '⊘',
	timed_out: '◷',
	refused: '⊖',
	lost: '⊗',
};

export const statusLabels: Readonly<Record<TaskStatus, string>> = {
	queued: 'queued',
	running: 'running',
	cancelling: 'cancelling',
	succeeded: 'succeeded',
	failed: 'failed',
	cancelled: 'cancelled',
	timed_out: 'timed out',
	refused: 'refused',
	lost: 'lost',
};

/** Header order: what needs attention first. */
export const statusOrder: readonly TaskStatus[] = ['running', 'cancelling', 'queued', 'failed', 'timed_out', 'lost', 'cancelled', 'refused', 'succeeded'];


/** Cuts to `width` code points, marking the cut with an ellipsis. */
export function truncate(text: string, width: number): string {
	const chars = [...text];
	if (chars.length <= width) {
		return text;
	}

	return width <= 0 ? '' : `${chars.slice(0, width - 1).join('')}…`;
}

/** Greedy word wrap by code points; a word longer than the width is cut into pieces. */
export function wrapWords(text: string, width: number): string[] {
	const size = Math.max(1, width);
	const lines: string[] = [];
	let line = '';
	for (const word of text.split(/\s+/).filter(Boolean)) {
		const candidate = line === '' ? word : `${line} ${word}`;
		if ([...candidate].length <= size) {
			line = candidate;
			continue;
		}

		if (line !== '') {
			lines.push(line);
		}

		let rest = [...word];
		while (rest.length > size) {
			lines.push(rest.slice(0, size).join(''));
			rest = rest.slice(size);
		}

		line = rest.join('');
	}

	if (line !== '') {
		lines.push(line);
	}

	return lines;
}

/**
 * A task title on one line: a title may hold line breaks and runs of spaces (it is often the goal).
 * Only as much as a terminal line can show: the dashboard measures it on every frame.
 */
export function titleLine(title: string): string {
	return measurable(title, maxMeasuredLength * 2).replace(/\s+/g, ' ');
}

/** The first line of a text, for one-line places (titles, prompts), bounded like titleLine. */
export function oneLine(text: string): string {
	const line = measurable(text, maxMeasuredLength * 2).replace(/\s*\n[\s\S]*$/, '…').trim();
	return line.length > maxMeasuredLength ? `${measurable(line)}…` : line;
}

function duration(task: TaskView, now: number): string {
	if (task.startedAt === null) {
		return '';
	}

	return formatElapsed((task.finishedAt ?? now) - task.startedAt);
}

function exitText(task: TaskView): string {
	if (task.exitCode !== null) {
		return `exit ${task.exitCode}`;
	}

	return task.signal ? task.signal : '';
}

const stopReasonWords: Readonly<Record<string, string>> = {timeout: 'timeout', 'fail-fast': 'fail-fast', shutdown: 'quitting', budget: 'budget', stuck: 'stuck'};

/** "● running 1m05s", "✗ failed exit 1 · 12s", "⊖ refused". */
export function statusBadge(task: TaskView, now: number): string {
	const parts = [statusSymbols[task.status], statusLabels[task.status]];
	switch (task.status) {
		case 'failed': {
			parts.push(exitText(task), task.startedAt === null ? '' : `· ${duration(task, now)}`);
			break;
		}

		case 'cancelling': {
			const reason = task.cancelling ? stopReasonWords[task.cancelling.reason] : undefined;
			parts.push(reason ? `(${reason})` : '', duration(task, now));
			break;
		}

		case 'queued':
		case 'refused': {
			break;
		}

		default: {
			parts.push(duration(task, now));
		}
	}

	if (task.attempt > 1) {
		parts.push(`· attempt ${task.attempt}`);
	}

	return parts.filter(part => part !== '').join(' ');
}

/** The kill cascade as the operator needs to see it: what was sent, and when the next signal goes. */
export function cancelCountdown(task: TaskView, now: number): string | null {
	const cancelling = task.cancelling;
	if (!cancelling) {
		return null;
	}

	const sent = `SIGTERM sent ${formatElapsed(now - cancelling.termSentAt)} ago`;
	if (cancelling.killSent) {
		return `${sent} · SIGKILL sent`;
	}

	const remaining = Math.ceil((cancelling.killDueAt - now) / 1000);
	return remaining > 0 ? `${sent} · SIGKILL in ${remaining}s` : `${sent} · SIGKILL due now`;
}

/** The one extra line a status needs: the countdown, the error, or why the task was refused. */
export function statusDetail(task: TaskView, now: number): string | null {
	switch (task.status) {
		case 'cancelling': {
			// Before the runner confirms this dashboard's y (state/intents.ts stopAsked): no countdown yet.
			return cancelCountdown(task, now) ?? 'stop asked of the runner host';
		}

		case 'refused': {
			return oneLine(task.reason || task.errorLine || 'refused');
		}

		case 'failed':
		case 'timed_out':
		case 'lost':
		case 'cancelled': {
			const line = failureLine(task);
			return line ? oneLine(line) : null;
		}

		case 'queued': {
			// What holds it back beyond its turn (its provider's slots); the runner says it in a sentence.
			return task.waitingFor === null ? null : oneLine(task.waitingFor);
		}

		case 'running': {
			// The runner's verdict (task.stuck), with how long it has been quiet, so slow and stuck read apart.
			return task.stuckSince === null ? null : `stuck? no output or tool activity for ${formatElapsed(now - task.stuckSince)}`;
		}

		default: {
			return null;
		}
	}
}

/** "deep (anthropic, high)", "profile coder", "parent's model". */
export function routeLabel(task: TaskView): string {
	switch (task.routeKind) {
		case 'model': {
			const details = [task.provider, task.reasoningEffort].filter(Boolean).join(', ');
			return details ? `${task.routeName ?? '?'} (${details})` : task.routeName ?? '?';
		}

		case 'profile': {
			return `profile ${task.profile ?? task.routeName ?? '?'}`;
		}

		case 'explicit': {
			return task.provider ? `explicit model (${task.provider})` : 'explicit model';
		}

		case 'parent': {
			return 'no route';
		}
	}
}

/**
 * The model a task runs on, as far as the plan knows: its own or its route's; under a profile route
 * the one that profile's config.yaml names (doctor shows the same); else whose model it falls to.
 */
function modelText(task: TaskView): string {
	if (task.model !== null) return task.model;
	if (task.routeKind !== 'profile') return "parent's model";
	return task.profileModel === null ? "profile's model" : `${task.profileModel} (profile's config)`;
}

/**
 * The route first (short, and what descriptions decide), then the model: a narrow pane cuts the
 * model's tail. A refused task never runs, so it has neither.
 */
export function routeLine(task: TaskView): string {
	if (task.status === 'refused') {
		return 'refused: not run';
	}

	const model = modelText(task);
	const telemetry = task.telemetry;
	// What Hermes says it used wins over what was planned: under a profile route it is the only
	// way to know the model at all, and a mismatch is worth seeing.
	const used = telemetry?.model_used && telemetry.model_used !== task.model ? ` → ${telemetry.model_used}` : '';
	// stream-json's counts, where the spend line below (from state.db) does not know them yet: the
	// same number twice, one line apart, only crowds the pane.
	const extras = [
		telemetry?.tokens && (task.spend?.input_tokens ?? null) === null ? `${formatCount(telemetry.tokens.total)} tok` : undefined,
		telemetry && telemetry.tool_calls > 0 && (task.spend?.tool_calls ?? null) === null ? `${telemetry.tool_calls} tool${telemetry.tool_calls === 1 ? '' : 's'}` : undefined,
	].filter(Boolean);
	// First, on a batch across hosts: where it runs is what an operator looks for.
	return [...(task.host ? [`on ${task.host}`] : []), `${routeLabel(task)} · ${model}${used}`, ...extras].join(' · ');
}

/**
 * The route as a list row has room for it: the route's name and the model, without provider,
 * reasoning effort or telemetry (the focused pane below shows those). The model is what the
 * operator scans the list for.
 */
export function routeBrief(task: TaskView): string {
	if (task.status === 'refused') {
		return 'refused: not run';
	}

	const name = task.routeKind === 'model' ? task.routeName ?? '?' : task.routeKind === 'explicit' ? 'explicit' : routeLabel(task);
	const model = modelText(task);
	const used = task.telemetry?.model_used && task.telemetry.model_used !== task.model ? ` → ${task.telemetry.model_used}` : '';
	return `${name} · ${model}${used}`;
}

/** 950 → "950", 12_345 → "12.3k", 2_500_000 → "2.5M". */
export function formatCount(count: number): string {
	if (count < 1000) {
		return String(count);
	}

	return count < 1_000_000 ? `${(count / 1000).toFixed(1)}k` : `${(count / 1_000_000).toFixed(1)}M`;
}
