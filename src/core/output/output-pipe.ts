// A task's pipes, read into its log and its TaskOutput: when the log cannot keep up the pipe is
// paused (the task then blocks on write, as under a terminal), and once the task's process group
// is gone, outputEnd decides whether the pipes closed or someone outside the group still holds them.
import type {Writable} from 'node:stream';
import {setTimeout as delay} from 'node:timers/promises';

/** When output last arrived (or we got ready to read more): tells a slow drain from a silent pipe. */
export type OutputActivity = {lastChunkAt: number; bytes?: number};

/**
 * Everything goes to the log; when the disk is slower than the task, the task's pipe is paused
 * instead of buffering in memory (the task then blocks on write, as under a terminal).
 */
export function pipeWithBackpressure(source: NodeJS.ReadableStream, log: Writable, onChunk: (chunk: Buffer) => void, activity?: OutputActivity): void {
	source.on('data', (chunk: Buffer) => {
		if (activity) {
			activity.lastChunkAt = Date.now();
			activity.bytes = (activity.bytes ?? 0) + chunk.length;
		}

		onChunk(chunk);
		if (!log.write(chunk)) {
			source.pause();
			log.once('drain', () => {
				// Quiet time counts from here: while paused, the silence was ours, not the task's.
				if (activity) {
					activity.lastChunkAt = Date.now();
				}

				source.resume();
			});
		}
	});
}

/**
 * More than any pipe or socket buffer holds (64 KiB to 1 MiB): past this much output after the
 * group has ended, someone outside the group is still printing.
 */
const heldAfterBytes = 4 * 1024 * 1024;

/**
 * Called once the task's process group is empty. Its pipes normally close as soon as we have read
 * what they hold: nothing in the group is left to write. If they stay open, a process outside the
 * group holds them ('held'), and waiting for it would hang the batch for as long as it lives.
 * Quiet pipes are given up after `quietMs` without output; a process that keeps printing (a dev
 * server left behind) after `limitMs`. Time spent waiting for our own disk never counts: a slow
 * log is drained to its last byte, and is never mistaken for an escaped process. Only more
 * output than any pipe can hold gives up on it.
 */
export async function outputEnd(closed: Promise<void>, activity: OutputActivity, log: Writable, {quietMs = 1000, limitMs = 2000} = {}): Promise<'closed' | 'held'> {
	const bytesAtStart = activity.bytes ?? 0;
	let done = false;
	void closed.then(() => {
		done = true;
	});
	let waitedOnTask = 0;
	let last = Date.now();
	for (;;) {
		await Promise.race([closed, delay(100)]);
		if (done) {
			return 'closed';
		}

		const now = Date.now();
		const waitingOnDisk = log.writableLength > 0;
		if (!waitingOnDisk) {
			waitedOnTask += now - last;
		}

		last = now;
		const quiet = !waitingOnDisk && now - activity.lastChunkAt >= quietMs;
		if (quiet || waitedOnTask >= limitMs || (activity.bytes ?? 0) - bytesAtStart > heldAfterBytes) {
			return 'held';
		}
	}
}
