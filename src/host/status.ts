// Keeps host.json (wire/host-json.ts) up to date as the batch's events and the client count change.
import {writeJsonAtomic} from '../core/run-folder/folder.js';
import type {BatchEvent, TaskStatus} from '../core/types.js';
import {countByStatus, hostStatusPath, type HostStatus} from '../wire/host-json.js';

/** Follows the batch's events and the client count, and keeps host.json up to date. */
export class HostStatusFile {
	private readonly statuses = new Map<string, TaskStatus>();
	private clients = 0;
	private finished = false;
	/** The writes under way (one at a time), ending once host.json holds the newest status. */
	private writing: Promise<void> = Promise.resolve();
	private writingNow = false;
	/** Something changed since the status being written was taken. */
	private stale = false;

	constructor(private readonly runDir: string, private readonly socket: string, taskIds: ReadonlyArray<{id: string; refused: boolean}>, private readonly origin?: string) {
		for (const task of taskIds) this.statuses.set(task.id, task.refused ? 'refused' : 'queued');
		this.write();
	}

	onEvent(event: BatchEvent): void {
		if (event.type === 'task.started') this.statuses.set(event.id, 'running');
		else if (event.type === 'task.cancelling') this.statuses.set(event.id, 'cancelling');
		else if (event.type === 'task.requeued') this.statuses.set(event.id, 'queued');
		else if (event.type === 'task.finished') this.statuses.set(event.id, event.result.status);
		else if (event.type === 'batch.finished') this.finished = true;
		else if (event.type === 'batch.reopened') this.finished = false;
		else if (event.type === 'batch.replanned') {
			for (const {id, plan} of event.tasks) {
				const status = this.statuses.get(id);
				if (status === 'queued' || status === 'refused') this.statuses.set(id, plan.decision.refused ? 'refused' : 'queued');
			}
		} else return;
		this.write();
	}

	setClients(count: number): void {
		this.clients = count;
		this.write();
	}

	/** Resolves once every write asked for so far is on disk. */
	async flushed(): Promise<void> {
		return this.writing;
	}

	/**
	 * One write at a time, so an older status never lands after a newer one; changes made while
	 * one is under way are written together once it is done. Sixteen tasks starting at once are
	 * two writes, not seventeen: an atomic write costs ~1.5 ms of CPU, and a batch of 16 short
	 * tasks asked for 36 (bench/RESULTS.md). host.json ends as the newest status all the same.
	 */
	private write(): void {
		this.stale = true;
		if (this.writingNow) return;
		this.writingNow = true;
		this.writing = (async () => {
			while (this.stale) {
				this.stale = false;
				await writeJsonAtomic(hostStatusPath(this.runDir), this.status()).catch(() => undefined);
			}

			this.writingNow = false;
		})();
	}

	private status(): HostStatus {
		return {
			pid: process.pid,
			socket: this.socket,
			clients: this.clients,
			tasks: countByStatus(this.statuses.values()),
			finished: this.finished,
			updated_at: new Date().toISOString(),
			...(this.origin === undefined ? {} : {origin: this.origin}),
		};
	}
}
