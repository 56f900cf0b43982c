// The dashboard must answer its operator while a subagent floods or spins the CPU. Every agent
// runs detached in its own session, and Linux's scheduler (with autogroup, the default on most
// desktops and servers) shares the CPU between sessions, not processes: sixteen busy agents took
// sixteen seventeenths of it and left the dashboard a key-press latency of hundreds of ms.
// Lowering each agent's priority (its session's autogroup nice, and the process's own nice for
// systems without autogroup) gives the dashboard, and the operator's shell, the CPU first when
// they want it; agents still get all of it otherwise, and a real agent mostly waits on its model.
import {writeFileSync} from 'node:fs';
import {setPriority} from 'node:os';

/** Niceness given to agents under the dashboard: weight 110 against the dashboard's 1024. */
export const dashboardAgentNice = 10;

/**
 * Makes the agent `pid` (the leader of its own session) yield the CPU: `nice` from 1 to 19;
 * 0 leaves it alone. Raising niceness needs no privilege; where it is refused (another user's
 * process, no /proc) nothing changes and nothing fails.
 */
export function lowerAgentPriority(pid: number, nice: number): void {
	if (!(nice > 0)) {
		return;
	}

	const value = Math.min(19, Math.floor(nice));
	try {
		writeFileSync(`/proc/${pid}/autogroup`, String(value));
	} catch {
		// No autogroup (disabled, not Linux): the process's own nice below is what counts.
	}

	try {
		setPriority(pid, value);
	} catch {
		// Already gone, or not ours.
	}
}
