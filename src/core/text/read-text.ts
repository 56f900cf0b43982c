// Text files (tasks, config, settings) and stdin must be UTF-8. Node's own decoding turns every
// bad byte into U+FFFD without a word (a Latin-1 `é` reached the prompt as `�`) and reads UTF-16 as
// a string of NULs; here such input is refused, naming the problem, where it is and the fix.
import {closeSync, openSync, readSync} from 'node:fs';
import {isUtf8} from 'node:buffer';
import {InputError} from '../errors.js';
import {NotRegularFileError, openRegularFile} from '../regular-file.js';

const boms: ReadonlyArray<{bytes: number[]; encoding: string; iconv: string}> = [
	// UTF-32 first: its little-endian mark starts with UTF-16's.
	{bytes: [0xff, 0xfe, 0x00, 0x00], encoding: 'UTF-32 LE', iconv: 'UTF-32'},
	{bytes: [0x00, 0x00, 0xfe, 0xff], encoding: 'UTF-32 BE', iconv: 'UTF-32'},
	{bytes: [0xff, 0xfe], encoding: 'UTF-16 LE', iconv: 'UTF-16'},
	{bytes: [0xfe, 0xff], encoding: 'UTF-16 BE', iconv: 'UTF-16'},
];

function convertFix(from: string, label: string): string {
	const file = label.startsWith('<') ? 'FILE' : label;
	return `save it as UTF-8, e.g. iconv -f ${from} -t UTF-8 ${file} > ${file}.utf8`;
}

/** The bytes as text, or an InputError when they are not UTF-8. A UTF-8 byte-order mark is dropped. */
export function decodeUtf8(bytes: Buffer, label: string): string {
	for (const bom of boms) {
		if (bom.bytes.every((byte, index) => bytes[index] === byte)) {
			throw new InputError(`is ${bom.encoding} text (it starts with a ${bom.encoding} byte-order mark), not UTF-8`, {file: label}, convertFix(bom.iconv, label));
		}
	}

	const text = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
	if (!isUtf8(text)) {
		const offset = firstInvalidByte(text) + (text === bytes ? 0 : 3);
		const line = lineAt(bytes, offset);
		throw new InputError(
			`is not UTF-8 text: byte 0x${bytes[offset]!.toString(16).toUpperCase().padStart(2, '0')} at byte offset ${offset} (line ${line}) is not valid UTF-8; Latin-1 or Windows-1252 text?`,
			{file: label, line},
			convertFix('latin1', label),
		);
	}

	if (looksLikeUtf16(text)) {
		throw new InputError('looks like UTF-16 text without a byte-order mark (every other byte is NUL), not UTF-8', {file: label}, convertFix('UTF-16LE', label));
	}

	return text.toString('utf8');
}

/**
 * The most bytes read from each kind of input, sized for real use with a wide margin: a batch of a
 * thousand tasks with 30 KB of context each is 30 MB; Hermes's config.yaml and our delegate.yaml
 * and themes are a few KB. Without a bound `yes '[...]' | run` grew to gigabytes and `--config
 * /dev/zero` never ended. docs/tasks.md "Input limits" says the same.
 */
export const inputLimits = {
	// A tasks file may be a pipe (`run <(make-tasks)`); the files below never are: a FIFO or a
	// device there would only hang the command (`--config FIFO` hung `config show`), so they are read
	// only when they are regular files (core/regular-file.ts).
	tasks: {bytes: 64 * 1024 * 1024, what: 'a tasks file or stdin', fix: 'split the batch into several runs', regularOnly: false},
	config: {bytes: 8 * 1024 * 1024, what: 'a Hermes config file', fix: 'check that this is the config file you meant (--config)', regularOnly: true},
	settings: {bytes: 1024 * 1024, what: 'delegate.yaml', fix: 'check that this is the settings file you meant', regularOnly: true},
	theme: {bytes: 1024 * 1024, what: 'a theme file', fix: 'check that this is the theme file you meant (--theme)', regularOnly: true},
} as const;

export type InputLimit = (typeof inputLimits)[keyof typeof inputLimits];

function openFor(file: string, limit: InputLimit, label: string): number {
	if (!limit.regularOnly) return openSync(file, 'r');
	try {
		return openRegularFile(file).fd;
	} catch (error) {
		if (!(error instanceof NotRegularFileError)) throw error;
		throw new InputError(`is ${error.kind}, not a regular file: hermes-delegate reads ${limit.what} only from a regular file`, {file: label}, limit.fix);
	}
}

function tooLarge(limit: InputLimit, label: string): InputError {
	return new InputError(`is larger than ${limit.bytes / 1024 / 1024} MiB, the most hermes-delegate reads from ${limit.what}`, {file: label}, limit.fix);
}

/**
 * A file's bytes, at most limit.bytes of them: a bigger file (or an endless one, /dev/zero) is an
 * InputError as soon as the limit is passed. File system errors are thrown as they are.
 */
export function readBoundedFile(file: string, limit: InputLimit, label: string = file): Buffer {
	const fd = openFor(file, limit, label);
	try {
		const chunks: Buffer[] = [];
		let total = 0;
		for (;;) {
			const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, limit.bytes + 1 - total));
			const length = readSync(fd, chunk, 0, chunk.length, null);
			if (length === 0) return Buffer.concat(chunks, total);
			chunks.push(chunk.subarray(0, length));
			total += length;
			if (total > limit.bytes) throw tooLarge(limit, label);
		}
	} finally {
		closeSync(fd);
	}
}

/** A stream's bytes (stdin), at most limit.bytes: past that, reading stops and an InputError is thrown. */
export async function readBoundedStream(stream: NodeJS.ReadableStream, limit: InputLimit, label: string): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let total = 0;
	for await (const chunk of stream) {
		const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk as Buffer;
		chunks.push(bytes);
		total += bytes.length;
		if (total > limit.bytes) throw tooLarge(limit, label); // leaving the loop destroys the stream
	}

	return Buffer.concat(chunks, total);
}

/** Reads a text file that must be UTF-8, within the limit. File system errors are thrown as they are, for the caller to word. */
export function readUtf8File(file: string, label: string = file, limit: InputLimit = inputLimits.tasks): string {
	return decodeUtf8(readBoundedFile(file, limit, label), label);
}

// UTF-16 of ASCII text: a NUL in every other byte. Real UTF-8 text holds no NUL at all.
function looksLikeUtf16(bytes: Buffer): boolean {
	const sample = bytes.subarray(0, 64);
	if (sample.length < 4) return false;
	let nuls = 0;
	for (const byte of sample) if (byte === 0) nuls++;
	return nuls * 3 >= sample.length;
}

function lineAt(bytes: Buffer, offset: number): number {
	let line = 1;
	for (let index = bytes.indexOf(0x0a); index !== -1 && index < offset; index = bytes.indexOf(0x0a, index + 1)) line++;
	return line;
}

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function firstInvalidByte(bytes: Buffer): number {
	let index = 0;
	while (index < bytes.length) {
		const lead = bytes[index]!;
		const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
		if (length === 0) return index;
		if (length > 1) {
			const second = bytes[index + 1];
			if (second === undefined) return index;
			// Overlong forms, surrogates and code points past U+10FFFF are ruled out by the second byte.
			const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
			const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
			if (second < low || second > high) return index;
			for (let next = 2; next < length; next++) {
				const byte = bytes[index + next];
				if (byte === undefined || byte < 0x80 || byte > 0xbf) return index;
			}
		}

		index += length;
	}

	return bytes.length;
}
