// A task's complete output goes to its log file, however much it prints: the dashboard and the
// results keep only bounded tails, so the log is where nothing is lost.
import {createWriteStream, type WriteStream} from 'node:fs';
import {setTimeout as delay} from 'node:timers/promises';

/** When output last arrived: tells a slow drain apart from a pipe nobody writes to any more. */
export type OutputActivity = {lastChunkAt: number};

/**
 * A 1 MiB write buffer: with the default 16 KiB every 64 KiB pipe read would pause the task
 * until the disk caught up, serialising reading and writing. Still bounded per task.
 */
export function openTaskLog(file: string): WriteStream {
	return createWriteStream(file, {highWaterMark: 1024 * 1024});
}

/**
 * Everything goes to the log file; when the disk is slower than the task, the task's pipe is
 * paused instead of buffering in memory (the task then blocks on write, as under a terminal).
 */
export function pipeWithBackpressure(source: NodeJS.ReadableStream, log: WriteStream, onChunk: (chunk: Buffer) => void, activity?: OutputActivity): void {
	source.on('data', (chunk: Buffer) => {
		if (activity) {
			activity.lastChunkAt = Date.now();
		}

		onChunk(chunk);
		if (!log.write(chunk)) {
			source.pause();
			log.once('drain', () => source.resume());
		}
	});
}

/**
 * Called once the task's process group is empty. Its pipes normally close at once: nothing in the
 * group is left to hold them. If they stay open, a process outside the group holds them ('held'),
 * and waiting for it would hang the batch for as long as it lives. Quiet pipes are given up after
 * `quietMs` without output (and nothing waiting on the disk); a process that keeps printing (a
 * dev server left behind) after `limitMs` at the most. What was read by then is in the log.
 */
export async function outputEnd(closed: Promise<void>, activity: OutputActivity, log: WriteStream, {quietMs = 1000, limitMs = 2000} = {}): Promise<'closed' | 'held'> {
	const startedAt = Date.now();
	let done = false;
	void closed.then(() => {
		done = true;
	});
	for (;;) {
		await Promise.race([closed, delay(100)]);
		if (done) {
			return 'closed';
		}

		const now = Date.now();
		if ((now - activity.lastChunkAt >= quietMs && log.writableLength === 0) || now - startedAt >= limitMs) {
			return 'held';
		}
	}
}
