// Saving RouteEdits into config.yaml: atomic, mode/owner/symlink kept, a failure leaves the file
// as it was, and a change made on disk after loading is never overwritten.
import {execFileSync} from 'node:child_process';
import {chmodSync, chownSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {loadHermesConfig, saveRouteEdits} from '../../../src/core/config/config.js';
import {ConfigConflictError} from '../../../src/core/config/save.js';
import {InputError} from '../../../src/core/errors.js';
import {lineDiff} from '../../../src/core/text/line-diff.js';
import {removeHermesHomes, writeHermesHome} from '../../helpers/hermes-home.js';

const immutable: string[] = [];
afterEach(() => {
	for (const folder of immutable.splice(0)) {
		execFileSync('chattr', ['-i', folder]);
	}

	removeHermesHomes();
});

const config = `# routes for the team   
delegation:
  backend: model_map   # active
  backends:
    model_map:
      options:
        - name: fast   # cheap
          description: "Quick work."
          provider: openrouter
          model: google/gemini-3-flash-preview
        - name: deep
          description: Hard work.
          provider: anthropic
          model: claude-opus-5
      default: fast
display:
  skin: mono   # not ours
`;

const describeDeep = {kind: 'set-field', list: 'model_map', name: 'deep', field: 'description', value: 'Hard debugging and design.'} as const;

function refusal(run: () => unknown): InputError {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		return error as InputError;
	}

	throw new Error('expected the save to be refused');
}

describe('saveRouteEdits', () => {
	it('writes only the changed line, keeps the mode and owner, and leaves no temporary file', () => {
		const {home, configPath} = writeHermesHome({config});
		chmodSync(configPath, 0o640);
		chownSync(configPath, 4321, 4322);
		const result = saveRouteEdits(loadHermesConfig({configPath, hermesHome: home}), [describeDeep]);
		const after = readFileSync(configPath, 'utf8');
		expect(lineDiff(config, after)).toEqual([{line: 12, removed: ['          description: Hard work.'], added: ['          description: Hard debugging and design.']}]);
		expect(result).toMatchObject({before: config, after, writtenPath: configPath, externalChange: undefined});
		const stat = statSync(configPath);
		expect([stat.mode & 0o777, stat.uid, stat.gid]).toEqual([0o640, 4321, 4322]);
		expect(readdirSync(home)).toEqual(['config.yaml']);
	});

	it('a symlinked config stays a symlink and its target is updated', () => {
		const {home} = writeHermesHome();
		const real = path.join(home, 'dotfiles', 'hermes.yaml');
		mkdirSync(path.dirname(real));
		writeFileSync(real, config);
		const link = path.join(home, 'config.yaml');
		symlinkSync(path.join('dotfiles', 'hermes.yaml'), link);
		const result = saveRouteEdits(loadHermesConfig({configPath: link, hermesHome: home}), [describeDeep]);
		expect(lstatSync(link).isSymbolicLink()).toBe(true);
		expect(realpathSync(link)).toBe(real);
		expect(result.writtenPath).toBe(real);
		expect(readFileSync(real, 'utf8')).toContain('description: Hard debugging and design.');
	});

	it('an invalid value is refused before anything is written', () => {
		const {home, configPath} = writeHermesHome({config});
		const problem = refusal(() => saveRouteEdits(loadHermesConfig({configPath, hermesHome: home}), [
			{kind: 'set-field', list: 'model_map', name: 'fast', field: 'model', value: 'x'},
			{kind: 'set-field', list: 'model_map', name: 'deep', field: 'reasoning_effort', value: 'extreme'},
		]));
		expect(problem.describe()).toMatch(/delegation\.backends\.model_map\.options\[1\]\.reasoning_effort: must be one of/);
		expect(readFileSync(configPath, 'utf8')).toBe(config);
	});

	it('an edit that leaves the active mode broken is refused: removing the default route', () => {
		const {home, configPath} = writeHermesHome({config});
		const problem = refusal(() => saveRouteEdits(loadHermesConfig({configPath, hermesHome: home}), [{kind: 'remove-route', list: 'model_map', name: 'fast'}]));
		expect(problem.message).toMatch(/default "fast" is not one of the model_map options \(deep\)/);
		expect(readFileSync(configPath, 'utf8')).toBe(config);
	});

	it('a failed save (read-only folder) leaves the file as it was and says so', () => {
		const {home, configPath} = writeHermesHome({config});
		const loaded = loadHermesConfig({configPath, hermesHome: home});
		// Root ignores permission bits, so the folder is made immutable instead.
		execFileSync('chattr', ['+i', home]);
		immutable.push(home);
		const problem = refusal(() => saveRouteEdits(loaded, [describeDeep]));
		expect(problem.message).toMatch(/^cannot save: .*the file was not changed$/);
		expect(problem.location.file).toBe(configPath);
		expect(readFileSync(configPath, 'utf8')).toBe(config);
		expect(readdirSync(home)).toEqual(['config.yaml']);
	});

	it('a UTF-8 byte-order mark is kept, and only the edited line changes', () => {
		const {home, configPath} = writeHermesHome({config: `\uFEFF${config}`});
		saveRouteEdits(loadHermesConfig({configPath, hermesHome: home}), [describeDeep]);
		const bytes = readFileSync(configPath);
		expect([...bytes.subarray(0, 3)]).toEqual([0xEF, 0xBB, 0xBF]);
		expect(bytes.subarray(3).toString('utf8')).toBe(config.replace('description: Hard work.', 'description: Hard debugging and design.'));
	});

	it('a read-only (0444) config is refused with the fix, though its folder is writable', () => {
		const {home, configPath} = writeHermesHome({config});
		chmodSync(configPath, 0o444);
		const problem = refusal(() => saveRouteEdits(loadHermesConfig({configPath, hermesHome: home}), [describeDeep]));
		expect(problem.message).toBe('is read-only (mode 0444); nothing was saved');
		expect(problem.fix).toMatch(/chmod u\+w/);
		expect(readFileSync(configPath, 'utf8')).toBe(config);
		expect(statSync(configPath).mode & 0o777).toBe(0o444);
		expect(readdirSync(home)).toEqual(['config.yaml']);
	});

	it('a config with another hard link is saved, and the result says the link keeps the old text', () => {
		const {home, configPath} = writeHermesHome({config});
		const other = path.join(home, 'config.yaml.hardlink');
		linkSync(configPath, other);
		const result = saveRouteEdits(loadHermesConfig({configPath, hermesHome: home}), [describeDeep]);
		expect(result.otherHardLinks).toBe(1);
		expect(readFileSync(other, 'utf8')).toBe(config);
		expect(readFileSync(configPath, 'utf8')).toContain('description: Hard debugging and design.');
	});

	it('a change on disk to the same route since loading is detected and not overwritten', () => {
		const {home, configPath} = writeHermesHome({config});
		const loaded = loadHermesConfig({configPath, hermesHome: home});
		const external = config.replace('description: Hard work.', 'description: Edited meanwhile.');
		writeFileSync(configPath, external);
		const problem = refusal(() => saveRouteEdits(loaded, [describeDeep]));
		expect(problem).toBeInstanceOf(ConfigConflictError);
		expect(problem.message).toContain('changed on disk since it was loaded');
		expect(problem.message).toContain('-          description: Hard work.');
		expect(problem.message).toContain('+          description: Edited meanwhile.');
		expect(readFileSync(configPath, 'utf8')).toBe(external);
	});

	it('a change on disk elsewhere since loading is kept, and the edit re-applied on top of it', () => {
		const {home, configPath} = writeHermesHome({config});
		const loaded = loadHermesConfig({configPath, hermesHome: home});
		const external = config.replace('skin: mono', 'skin: ares');
		writeFileSync(configPath, external);
		const result = saveRouteEdits(loaded, [describeDeep]);
		expect(result.externalChange).toEqual({before: config, after: external});
		expect(readFileSync(configPath, 'utf8')).toBe(external.replace('description: Hard work.', 'description: Hard debugging and design.'));
	});

	it('a config that did not exist is created', () => {
		const {home, configPath} = writeHermesHome({profiles: ['coder']});
		const loaded = loadHermesConfig({configPath, hermesHome: home});
		saveRouteEdits(loaded, [{kind: 'add-route', list: 'profile_routes', route: {name: 'coder', description: 'Writes code.'}}, {kind: 'set-mode', mode: 'profile_routes'}]);
		expect(readFileSync(configPath, 'utf8')).toBe('delegation:\n  backends:\n    profile_routes:\n      profiles:\n        - name: coder\n          description: Writes code.\n  backend: profile_routes\n');
		expect(loadHermesConfig({configPath, hermesHome: home}).delegation.mode).toBe('profile_routes');
	});

	it('adding a profile route for a profile that does not exist is refused when that mode is active', () => {
		const {home, configPath} = writeHermesHome({config: 'delegation:\n  backend: profile_routes\n  backends:\n    profile_routes:\n      profiles:\n        - {name: coder, description: C}\n', profiles: ['coder']});
		const problem = refusal(() => saveRouteEdits(loadHermesConfig({configPath, hermesHome: home}), [{kind: 'add-route', list: 'profile_routes', route: {name: 'ghost', description: 'G'}}]));
		expect(problem.message).toMatch(/profile "ghost" does not exist/);
	});
});
