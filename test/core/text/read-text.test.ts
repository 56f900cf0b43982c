// Text input that is not UTF-8 is refused with where and how to fix it, never silently mangled.
import {existsSync, mkdtempSync, rmSync, truncateSync, writeFileSync} from 'node:fs';
import {Readable} from 'node:stream';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {InputError} from '../../../src/core/errors.js';
import {decodeUtf8, inputLimits, readBoundedFile, readBoundedStream, readUtf8File} from '../../../src/core/text/read-text.js';

function problem(bytes: Buffer, label = 'tasks.json'): InputError {
	try {
		decodeUtf8(bytes, label);
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		return error as InputError;
	}

	throw new Error('expected the bytes to be refused');
}

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true});
});

describe('decodeUtf8', () => {
	it('reads UTF-8, with or without a byte-order mark (which is dropped)', () => {
		expect(decodeUtf8(Buffer.from('[{"goal":"café ☕ 𝄞"}]'), 'x')).toBe('[{"goal":"café ☕ 𝄞"}]');
		expect(decodeUtf8(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[1]')]), 'x')).toBe('[1]');
		expect(decodeUtf8(Buffer.alloc(0), 'x')).toBe('');
	});

	it('refuses Latin-1, naming the byte, its offset and line, and the iconv fix', () => {
		const error = problem(Buffer.from('[\n{"goal":"caf\u00e9"}]', 'latin1'));
		expect(error.message).toContain('byte 0xE9 at byte offset 14 (line 2)');
		expect(error.location).toMatchObject({file: 'tasks.json', line: 2});
		expect(error.fix).toBe('save it as UTF-8, e.g. iconv -f latin1 -t UTF-8 tasks.json > tasks.json.utf8');
	});

	it('refuses UTF-16 and UTF-32 with a byte-order mark, naming the encoding', () => {
		const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('[{"goal":"x"}]', 'utf16le')]);
		expect(problem(utf16le).message).toContain('is UTF-16 LE text');
		expect(problem(utf16le).fix).toContain('iconv -f UTF-16 -t UTF-8');
		expect(problem(Buffer.from([0xfe, 0xff, 0x00, 0x5b])).message).toContain('UTF-16 BE');
		expect(problem(Buffer.from([0xff, 0xfe, 0x00, 0x00, 0x5b, 0, 0, 0])).message).toContain('UTF-32 LE');
		expect(problem(Buffer.from([0x00, 0x00, 0xfe, 0xff])).message).toContain('UTF-32 BE');
	});

	it('refuses UTF-16 without a byte-order mark', () => {
		expect(problem(Buffer.from('[{"goal":"hello"}]', 'utf16le')).message).toContain('UTF-16 text without a byte-order mark');
	});

	it('finds the first bad byte past valid multi-byte characters; overlong forms and surrogates are bad', () => {
		expect(problem(Buffer.from([0x61, 0xe2, 0x98, 0x95, 0xff])).message).toContain('byte 0xFF at byte offset 4');
		expect(problem(Buffer.from([0x61, 0xc0, 0xaf])).message).toContain('byte 0xC0 at byte offset 1');
		expect(problem(Buffer.from([0xed, 0xa0, 0x80])).message).toContain('at byte offset 0');
		expect(problem(Buffer.from([0x61, 0xe2, 0x98])).message).toContain('at byte offset 1');
	});

	it('names stdin without inventing a file name for the fix', () => {
		expect(problem(Buffer.from([0xe9]), '<stdin>').fix).toContain('iconv -f latin1 -t UTF-8 FILE > FILE.utf8');
	});

	it('readUtf8File reads a real file and leaves file system errors as they are', () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'hermes-delegate-text-'));
		dirs.push(dir);
		writeFileSync(path.join(dir, 'ok.yaml'), 'a: é\n');
		expect(readUtf8File(path.join(dir, 'ok.yaml'))).toBe('a: é\n');
		expect(() => readUtf8File(path.join(dir, 'missing'))).toThrow(expect.objectContaining({code: 'ENOENT'}) as Error);
	});
});

describe('bounded reads', () => {
	const limit = inputLimits.settings;

	it('reads a file of exactly the limit, and refuses one byte more naming the file, the limit and a fix', () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'hermes-delegate-text-'));
		dirs.push(dir);
		const file = path.join(dir, 'delegate.yaml');
		writeFileSync(file, '');
		truncateSync(file, limit.bytes); // sparse: no disk used
		expect(readBoundedFile(file, limit).length).toBe(limit.bytes);
		truncateSync(file, limit.bytes + 1);
		const error = (() => {
			try {
				readBoundedFile(file, limit);
			} catch (error) {
				return error as InputError;
			}
		})();
		expect(error).toBeInstanceOf(InputError);
		expect(error!.describe()).toBe(`${file}: is larger than 1 MiB, the most hermes-delegate reads from delegate.yaml\n  fix: ${limit.fix}`);
	});

	it.skipIf(!existsSync('/dev/zero'))('ends reading an endless file (/dev/zero) at the limit', () => {
		// A tasks file may be a device or a pipe; config files are read only when regular (below).
		expect(() => readBoundedFile('/dev/zero', inputLimits.tasks)).toThrow(/larger than 64 MiB, the most hermes-delegate reads from a tasks file or stdin/);
		expect(() => readBoundedFile('/dev/zero', inputLimits.config)).toThrow(/is a device, not a regular file/);
	});

	it('stops reading a stream that goes past the limit', async () => {
		let produced = 0;
		const endless = new Readable({
			read() {
				produced += 64 * 1024;
				this.push(Buffer.alloc(64 * 1024, 0x20));
			},
		});
		await expect(readBoundedStream(endless, limit, '<stdin>')).rejects.toThrow(/^is larger than 1 MiB/);
		expect(endless.destroyed).toBe(true);
		expect(produced).toBeLessThan(limit.bytes * 2);
	});
});
