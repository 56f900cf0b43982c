// Where a task stands, and why a process cascade was started.
export type TaskStatus =
	| 'queued'
	| 'running'
	| 'cancelling'
	| 'succeeded'
	| 'failed'
	| 'cancelled'
	| 'timed_out'
	| 'refused'
	/**
	 * Ran on a worker host that stopped heartbeating mid-attempt (distributed runs): what became of
	 * it is unknown, and it is never re-run by itself, since the agent may have had side effects.
	 */
	| 'lost';

export const finalStatuses: ReadonlySet<TaskStatus> = new Set([
	'succeeded',
	'failed',
	'cancelled',
	'timed_out',
	'refused',
	'lost',
]);

/** Statuses of a task that still holds (or may still start) a process. */
export const activeStatuses: ReadonlySet<TaskStatus> = new Set(['queued', 'running', 'cancelling']);

export function isActive(status: TaskStatus): boolean {
	return activeStatuses.has(status);
}

export function isFinal(status: TaskStatus): boolean {
	return finalStatuses.has(status);
}

/**
 * Why a cascade was started; decides the final status (cancelled vs timed_out). `budget`: a
 * reached budget with budget_action cancel (cancelled); `stuck`: quiet for --stuck-timeout (timed_out).
 */
export const stopReasons = ['cancel', 'timeout', 'fail-fast', 'shutdown', 'budget', 'stuck'] as const;
export type StopReason = (typeof stopReasons)[number];

/** The kill cascade's visible progress, so the dashboard can count down. */
export type CancellingInfo = {
	reason: StopReason;
	/** epoch ms when SIGTERM went to the group. */
	termSentAt: number;
	/** epoch ms when SIGKILL is due (== termSentAt when the grace period was skipped). */
	killDueAt: number;
	killSent: boolean;
};
