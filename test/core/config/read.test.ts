// Reading config.yaml: only "no such file" at the default path means "absent"; every other
// reason the file cannot be read is an error naming the file, the problem and the fix.
import {mkdirSync, symlinkSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {defaultConfigPath, loadHermesConfig} from '../../../src/core/config/config.js';
import {InputError} from '../../../src/core/errors.js';
import {removeHermesHomes, writeHermesHome} from '../../helpers/hermes-home.js';

afterEach(removeHermesHomes);

function refusal(configPath: string, hermesHome: string): InputError {
	try {
		loadHermesConfig({configPath, hermesHome});
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		return error as InputError;
	}

	throw new Error('expected the config to be refused, not taken as absent');
}

const validConfig = 'delegation:\n  backend: model_map\n  backends:\n    model_map:\n      options:\n        - {name: fast, description: quick, provider: p, model: m}\n';

describe('reading config.yaml', () => {
	it('no such file at the default path is the built-in mode', () => {
		const {home} = writeHermesHome();
		expect(loadHermesConfig({configPath: defaultConfigPath(home), hermesHome: home}).delegation.source.exists).toBe(false);
	});

	it('a symlink loop is an error, not "absent"', () => {
		const {home, configPath} = writeHermesHome();
		symlinkSync(configPath, configPath);
		const problem = refusal(configPath, home);
		expect(problem.message).toMatch(/symlink loop/);
		expect(problem.location.file).toBe(configPath);
		expect(problem.fix).toMatch(/point the symlink at the real config.yaml/);
	});

	it('a dangling symlink is an error, not "absent"', () => {
		const {home, configPath} = writeHermesHome();
		symlinkSync(path.join(home, 'gone.yaml'), configPath);
		const problem = refusal(configPath, home);
		expect(problem.message).toMatch(/dangling symlink/);
		expect(problem.fix).toBeTruthy();
	});

	it('a symlink to a real config is read through', () => {
		const {home, configPath} = writeHermesHome({config: validConfig});
		const link = path.join(home, 'linked.yaml');
		symlinkSync(configPath, link);
		expect(loadHermesConfig({configPath: link, hermesHome: home}).delegation.mode).toBe('model_map');
	});

	it('a directory is an error naming the fix', () => {
		const {home, configPath} = writeHermesHome();
		mkdirSync(configPath);
		expect(refusal(configPath, home).message).toMatch(/is a directory/);
	});

	it('a path through a file is an error, not "absent"', () => {
		const {home, configPath} = writeHermesHome({config: validConfig});
		expect(refusal(path.join(configPath, 'config.yaml'), home).message).toMatch(/a part of its path is a file/);
	});

	it('Latin-1 text is refused with the line and the fix, instead of turning é into U+FFFD', () => {
		const {home, configPath} = writeHermesHome();
		const bytes = Buffer.concat([Buffer.from(validConfig.replace('quick', 'r')), Buffer.from('# caf'), Buffer.from([0xE9]), Buffer.from('\n')]);
		writeFileSync(configPath, bytes);
		const problem = refusal(configPath, home);
		expect(problem.message).toMatch(/not valid UTF-8 \(byte 0xE9 at offset \d+\)/);
		expect(problem.location.line).toBe(7);
		expect(problem.fix).toMatch(/save the file as UTF-8/);
	});

	it('UTF-16 text is refused naming the encoding', () => {
		const {home, configPath} = writeHermesHome();
		writeFileSync(configPath, Buffer.concat([Buffer.from([0xFF, 0xFE]), Buffer.from(validConfig, 'utf16le')]));
		expect(refusal(configPath, home).message).toMatch(/is UTF-16 text/);
	});

	it('a UTF-8 byte-order mark is accepted', () => {
		const {home, configPath} = writeHermesHome({config: `\uFEFF${validConfig}`});
		expect(loadHermesConfig({configPath, hermesHome: home}).delegation.mode).toBe('model_map');
	});
});
