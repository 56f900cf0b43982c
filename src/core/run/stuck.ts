// "Slow or stuck", as one rule that the runner's monitor and anything that shows it
// share: a running attempt is stuck once it has shown neither output nor tool activity for
// stuck_after. Slow work still prints or calls tools; a hung provider call or a wedged tool does
// neither. Nothing is killed for it here: only --stuck-timeout turns it into a stop.

/** delegate.yaml's stuck_after when it names none: long enough for a slow model's first token. */
export const defaultStuckAfterMs = 5 * 60_000;

/** When the attempt last showed a sign of life: the newest of its start, its last output and its last tool activity (epoch ms; null: none yet). */
export function quietSince(startedAt: number, lastOutputAt: number | null, lastToolAt: number | null): number {
	return Math.max(startedAt, lastOutputAt ?? startedAt, lastToolAt ?? startedAt);
}

/** Whether an attempt quiet since `since` is stuck at `now`. */
export function isStuck(since: number, now: number, stuckAfterMs: number): boolean {
	return now - since >= stuckAfterMs;
}
