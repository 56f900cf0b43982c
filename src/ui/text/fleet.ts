// The worker hosts of a batch on NATS as the header's workers line says them: pure text.
import type {FleetStanding} from '../../core/types.js';
import {formatElapsed} from '../../core/text/durations.js';
import {terminalSafe} from '../../core/output/visible-text.js';

/** `workers: wa 2/4 free · wb 0/4 free · lost: wc (…)`; first, while the runner host is cut off from NATS, that. */
export function fleetText(fleet: FleetStanding, now: number): {offline: string | null; workers: string} {
	const live = fleet.workers.map(worker => `${terminalSafe(worker.name)} ${worker.free}/${worker.slots} free`);
	const lost = fleet.lost.map(worker => `${terminalSafe(worker.name)} (${terminalSafe(worker.why)})`);
	const workers = [
		`workers: ${live.length > 0 ? live.join(' · ') : 'none live'}`,
		...(lost.length > 0 ? [`lost: ${lost.join(', ')}`] : []),
	].join(' · ');
	const offline = fleet.offlineSince === null
		? null
		: `⚠ NATS lost ${formatElapsed(Math.max(0, now - fleet.offlineSince))} ago (${terminalSafe(fleet.server)}): reconnecting by itself; reports wait on the workers · `;
	return {offline, workers};
}
