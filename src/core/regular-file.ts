// Files another user or program may have replaced with something that is not a file. open(2) of a
// FIFO for reading waits for a writer: a FIFO in a run folder hung `ls`, `logs` and `spend`, and
// `--config FIFO` hung `config show`. So these are opened non-blocking and then
// checked with fstat on the descriptor itself, never by a look at the path first (the path could be
// swapped between the look and the open): anything but a regular file is refused unread.
import {closeSync, constants, fstatSync, openSync, readSync, type Stats} from 'node:fs';

/** Thrown for a path that is a FIFO, a device, a socket or a folder: `code` is 'ENOTREG'. */
export class NotRegularFileError extends Error {
	readonly code = 'ENOTREG';

	constructor(readonly file: string, readonly kind: string) {
		// Said after the file's name by whoever reports it (`logs`: "FILE: cannot read this log: …").
		super(`${kind}, not a regular file`);
	}
}

function kindOf(stats: Stats): string {
	if (stats.isFIFO()) return 'a FIFO (named pipe)';
	if (stats.isSocket()) return 'a socket';
	if (stats.isDirectory()) return 'a directory';
	if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
	return 'not a plain file';
}

/** A read-only descriptor of `file`, which is a regular file; NotRegularFileError (closed) otherwise. */
export function openRegularFile(file: string): {fd: number; size: number} {
	const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
	let stats: Stats;
	try {
		stats = fstatSync(fd);
	} catch (error) {
		closeSync(fd);
		throw error;
	}

	if (!stats.isFile()) {
		closeSync(fd);
		throw new NotRegularFileError(file, kindOf(stats));
	}

	return {fd, size: stats.size};
}

/** The bytes of a regular file from `start` (negative: that many from its end), at most `max` of them. */
export function readRegularFile(file: string, options: {start?: number; max?: number} = {}): Buffer {
	const {fd, size} = openRegularFile(file);
	try {
		const max = options.max ?? Number.POSITIVE_INFINITY;
		let position = options.start === undefined ? 0 : options.start < 0 ? Math.max(0, size + options.start) : options.start;
		const chunks: Buffer[] = [];
		let total = 0;
		while (total < max) {
			const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, max - total, Math.max(64 * 1024, size - position + 1)));
			const length = readSync(fd, chunk, 0, chunk.length, position);
			if (length === 0) break;
			chunks.push(chunk.subarray(0, length));
			total += length;
			position += length;
		}

		return Buffer.concat(chunks, total);
	} finally {
		closeSync(fd);
	}
}

/** readRegularFile as UTF-8 text. */
export function readRegularText(file: string, options: {start?: number; max?: number} = {}): string {
	return readRegularFile(file, options).toString('utf8');
}
