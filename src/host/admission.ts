// Which connections the runner host accepts. Each costs a file descriptor from the moment it is
// accepted: idle clients without a cap took every descriptor the batch's tasks needed, and tasks
// failed with EMFILE, blamed on --concurrency (docs/reliability-security.md). So the host holds at most
// maxConnections at once, and refuses one more whenever what is left would not start and run the
// batch's tasks; a refused client is told why in a `bye` line and closed at once.
import {descriptorsForTasks, descriptorsFree} from '../core/process/open-files.js';

/** Connections held at once (dashboards, `wait`, `cancel`, `spend`, the MCP server): far more than one operator opens. */
export const defaultMaxConnections = 64;

/** Kept beyond the tasks' needs: the host's own writes (results, host.json, logs) and a refused connection's moment. */
const hostReserve = 16;

export type Admission = {maxConnections: number; concurrency: number; free?: () => {free: number; limit: number} | undefined};

/** A peer check in flight runs `ss` (peer.ts): its pipes for a moment. */
const descriptorsPerCheck = 6;

/**
 * Why a new connection is refused, or undefined to accept it. `open`: connections held now (this one
 * not counted); `checking`: those of them whose peer check runs now.
 */
export function refusalOf(open: number, checking: number, admission: Admission): string | undefined {
	if (open >= admission.maxConnections) {
		return `this runner host already holds ${admission.maxConnections} connections, its limit: close a dashboard or script attached to it and try again`;
	}

	const descriptors = (admission.free ?? descriptorsFree)();
	const keep = descriptorsForTasks(admission.concurrency) + hostReserve + (checking * descriptorsPerCheck);
	if (descriptors && descriptors.free < keep) {
		return `only ${descriptors.free} file descriptors are left under its open-files limit (ulimit -n ${descriptors.limit}), and ${keep} are kept for the batch's tasks: close other clients of it, or start the batch with a higher ulimit -n`;
	}

	return undefined;
}
