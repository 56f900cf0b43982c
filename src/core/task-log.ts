// A task's complete output goes to its log file, however much it prints: the dashboard and the
// results keep only bounded tails, so the log is where nothing is lost.
import {createWriteStream, type WriteStream} from 'node:fs';

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
export function pipeWithBackpressure(source: NodeJS.ReadableStream, log: WriteStream, onChunk: (chunk: Buffer) => void): void {
	source.on('data', (chunk: Buffer) => {
		onChunk(chunk);
		if (!log.write(chunk)) {
			source.pause();
			log.once('drain', () => source.resume());
		}
	});
}
