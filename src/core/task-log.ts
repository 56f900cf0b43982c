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
 * Called once the task's process group is empty. Its pipes normally close at once; if they
 * stay open with no output for `quietMs` and nothing waiting on the disk, a process outside
 * the group holds them ('held'), and waiting longer would hang the batch forever.
 */
export async function outputEnd(closed: Promise<void>, activity: OutputActivity, log: WriteStream, quietMs = 1000): Promise<'closed' | 'held'> {
	let done = false;
	void closed.then(() => {
		done = true;
	});
	for (;;) {
		await Promise.race([closed, delay(100)]);
		if (done) {
			return 'closed';
		}

		if (Date.now() - activity.lastChunkAt >= quietMs && log.writableLength === 0) {
			return 'held';
		}
	}
}
