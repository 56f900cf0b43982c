// Step one of the config: read the file's text (I/O only). Only "no such file" at the default
// path means Hermes was never configured for delegation; anything else that stops the read
// (a symlink loop, a dangling symlink, an unsearchable HERMES_HOME, a directory, bytes that are
// not UTF-8) is an error: taking it as "absent" would run every task on the parent's model.
import {lstatSync} from 'node:fs';
import path from 'node:path';
import {errnoCode, InputError, messageOf} from '../errors.js';
import {inputLimits, readBoundedFile} from '../text/read-text.js';

export type ConfigText = {path: string; exists: true; text: string} | {path: string; exists: false; text: undefined};

export type ReadConfigOptions = {
	/** Given on purpose (`--config`): then a missing file is an error too. */
	explicit?: boolean | undefined;
	/** Named in the "missing" fix: where the default would have been. */
	defaultPath?: string | undefined;
};

export function readConfigText(configPath: string, options: ReadConfigOptions = {}): ConfigText {
	let bytes: Buffer;
	try {
		bytes = readBoundedFile(configPath, inputLimits.config);
	} catch (error) {
		if (error instanceof InputError) throw error;
		const code = errnoCode(error);
		if (code === 'ENOENT' && !isSymlink(configPath)) {
			if (!options.explicit) {
				return {path: configPath, exists: false, text: undefined};
			}

			throw new InputError(`config file not found: ${configPath}`, {file: configPath}, `check the path, or leave --config out to use $HERMES_HOME/config.yaml${options.defaultPath ? ` (here ${options.defaultPath})` : ''}`);
		}

		throw readProblem(configPath, code, error);
	}

	return {path: configPath, exists: true, text: decodeUtf8(bytes, configPath)};
}

function isSymlink(file: string): boolean {
	try {
		return lstatSync(file).isSymbolicLink();
	} catch {
		return false;
	}
}

function readProblem(file: string, code: string | undefined, error: unknown): InputError {
	const folder = path.dirname(file);
	switch (code) {
		case 'ENOENT': {
			return new InputError('is a symlink to a file that does not exist (a dangling symlink)', {file}, 'point the symlink at the real config.yaml, or remove it if Hermes is not configured for delegation');
		}

		case 'ELOOP': {
			return new InputError('is a symlink loop: it (or a folder on its path) points back at itself', {file}, 'point the symlink at the real config.yaml');
		}

		case 'EACCES':
		case 'EPERM': {
			return new InputError('cannot be read: permission denied (on the file or a folder on its path)', {file}, `let this user read the file and search ${folder} (chmod), or run as the user who owns HERMES_HOME`);
		}

		case 'EISDIR': {
			return new InputError('is a directory, not a config file', {file}, 'point --config or HERMES_HOME at the folder that holds config.yaml');
		}

		case 'ENOTDIR': {
			return new InputError('cannot be read: a part of its path is a file, not a folder', {file}, 'check HERMES_HOME and the path given to --config');
		}

		default: {
			return new InputError(`cannot be read: ${code ?? messageOf(error)}`, {file}, 'check the path given to --config or HERMES_HOME');
		}
	}
}

const utf16Or32Boms: Array<{bytes: number[]; name: string}> = [
	{bytes: [0x00, 0x00, 0xFE, 0xFF], name: 'UTF-32'},
	{bytes: [0xFF, 0xFE, 0x00, 0x00], name: 'UTF-32'},
	{bytes: [0xFE, 0xFF], name: 'UTF-16'},
	{bytes: [0xFF, 0xFE], name: 'UTF-16'},
];

/**
 * The file's text, refused when it is not UTF-8: a Latin-1 `é` would otherwise become U+FFFD in
 * every route description, and a later edit would save that damage back. A UTF-8 BOM stays in
 * the text (ignoreBOM: the decoder would drop it otherwise): YAML allows it, and saving must not
 * change bytes nobody edited.
 * (A minimal check of our own; the shared readUtf8File helper is meant to replace it.)
 */
export function decodeUtf8(bytes: Buffer, file: string): string {
	const fix = 'save the file as UTF-8 (e.g. `iconv -f LATIN1 -t UTF-8`, or your editor\'s "save with encoding")';
	for (const bom of utf16Or32Boms) {
		if (bom.bytes.every((byte, index) => bytes[index] === byte)) {
			throw new InputError(`is ${bom.name} text (it starts with a ${bom.name} byte-order mark), not UTF-8`, {file}, fix);
		}
	}

	try {
		return new TextDecoder('utf-8', {fatal: true, ignoreBOM: true}).decode(bytes);
	} catch {
		const offset = firstInvalidUtf8(bytes);
		const line = bytes.subarray(0, offset).toString('latin1').split('\n').length;
		throw new InputError(`is not valid UTF-8 (byte 0x${(bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0')} at offset ${offset})`, {file, line}, fix);
	}
}

/** Where the first malformed sequence starts (its lead byte), for the message. */
function firstInvalidUtf8(bytes: Buffer): number {
	let index = 0;
	while (index < bytes.length) {
		const lead = bytes[index]!;
		const length = lead < 0x80 ? 1 : lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
		if (length === 0) {
			return index;
		}

		// One decoder per sequence: it also refuses overlong forms and surrogates.
		try {
			new TextDecoder('utf-8', {fatal: true}).decode(bytes.subarray(index, index + length));
		} catch {
			return index;
		}

		index += length;
	}

	return bytes.length;
}
