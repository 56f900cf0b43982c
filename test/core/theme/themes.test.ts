import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {InputError} from '../../../src/core/errors.js';
import {listThemes, loadTheme, ThemeError, type Theme} from '../../../src/core/theme/themes.js';
import {finalStatuses, type TaskStatus} from '../../../src/core/types.js';

const allStatuses: TaskStatus[] = ['queued', 'running', 'cancelling', ...finalStatuses];
const dir = mkdtempSync(path.join(tmpdir(), 'hd-themes-'));
afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

const darkJson = readFileSync(new URL('../../../themes/dark.json', import.meta.url), 'utf8');

/** Writes a variant of the shipped dark theme and returns its path. */
function themeFile(name: string, edit: (theme: any) => void): string {
	const data = JSON.parse(darkJson);
	edit(data);
	const file = path.join(dir, `${name}.json`);
	writeFileSync(file, JSON.stringify(data));
	return file;
}

function tokens(theme: Theme): Array<[string, string | undefined]> {
	return Object.entries(theme.colors).flatMap(([group, values]) =>
		Object.entries(values as Record<string, string | undefined>).map(([token, value]): [string, string | undefined] => [`${group}.${token}`, value]));
}

function errorOf(load: () => unknown): ThemeError {
	try {
		load();
	} catch (error) {
		expect(error).toBeInstanceOf(ThemeError);
		return error as ThemeError;
	}

	throw new Error('expected a ThemeError');
}

describe('shipped themes', () => {
	it('lists dark, light and no-color', () => {
		expect(listThemes()).toEqual(['dark', 'light', 'no-color']);
	});

	it('every shipped theme loads with the same full set of tokens', () => {
		const reference = tokens(loadTheme('dark', {noColor: false})).map(([token]) => token);
		expect(reference).toEqual(expect.arrayContaining(allStatuses.map(status => `status.${status}`)));
		for (const name of listThemes()) {
			const theme = loadTheme(name, {noColor: false});
			expect(theme.name).toBe(name);
			expect(tokens(theme).map(([token]) => token)).toEqual(reference);
		}
	});

	it('colour themes colour every token and no-color colours none', () => {
		for (const name of ['dark', 'light']) {
			const uncoloured = tokens(loadTheme(name, {noColor: false})).filter(([, value]) => value === undefined);
			expect(uncoloured, name).toEqual([]);
		}

		const coloured = tokens(loadTheme('no-color', {noColor: false})).filter(([, value]) => value !== undefined);
		expect(coloured).toEqual([]);
	});

	it('uses dark when nothing is asked for', () => {
		expect(loadTheme(undefined, {noColor: false}).name).toBe('dark');
	});
});

describe('NO_COLOR', () => {
	it('wins over a requested theme name', () => {
		expect(loadTheme('light', {noColor: true}).name).toBe('no-color');
	});

	it('wins even over a theme path that would fail to load', () => {
		expect(loadTheme(path.join(dir, 'does-not-exist.json'), {noColor: true}).name).toBe('no-color');
	});
});

describe('theme files given by path', () => {
	it('loads a valid custom theme, accepting #rgb and #rrggbb', () => {
		const file = themeFile('custom', theme => {
			theme.name = 'custom';
			theme.colors.status.running = '#0af';
			theme.colors.border.focused = '#FF8800';
			theme.colors.text.muted = null;
		});
		const theme = loadTheme(file, {noColor: false});
		expect(theme.colors.status.running).toBe('#0af');
		expect(theme.colors.border.focused).toBe('#FF8800');
		expect(theme.colors.text.muted).toBeUndefined();
	});

	it('names file, field and the expected value for a bad colour', () => {
		const file = themeFile('bad-colour', theme => {
			theme.colors.status.running = 42;
		});
		const error = errorOf(() => loadTheme(file, {noColor: false}));
		expect(error.message).toContain(`theme ${file}: colors.status.running: expected a colour name or #rrggbb, got 42`);
		expect(error).toBeInstanceOf(InputError);
		expect(error.describe()).toBe(error.message);
	});

	it('suggests the right spelling for a colour name in the wrong case, and rejects 4-digit hex', () => {
		const file = themeFile('bad-case', theme => {
			theme.colors.text.accent = 'Cyan';
			theme.colors.text.error = '#abcd';
		});
		const {message} = errorOf(() => loadTheme(file, {noColor: false}));
		expect(message).toContain('colors.text.accent: expected a colour name or #rrggbb, got "Cyan"; colour names are case-sensitive: write "cyan"');
		expect(message).toContain('colors.text.error: expected a colour name or #rrggbb, got "#abcd"');
	});

	it('names a missing token and how to add it', () => {
		const file = themeFile('missing', theme => {
			delete theme.colors.border.focused;
		});
		expect(errorOf(() => loadTheme(file, {noColor: false})).message).toContain(`theme ${file}: colors.border.focused: missing; add it`);
	});

	it('names a missing group', () => {
		const file = themeFile('missing-group', theme => {
			delete theme.colors.search;
		});
		expect(errorOf(() => loadTheme(file, {noColor: false})).message).toContain(`theme ${file}: colors.search: missing`);
	});

	it('names a misspelt token and lists the ones expected there', () => {
		const file = themeFile('typo', theme => {
			theme.colors.text.primry = 'white';
		});
		expect(errorOf(() => loadTheme(file, {noColor: false})).message).toContain(`theme ${file}: colors.text.primry: unknown token; remove it or fix its spelling (expected here: primary, muted, accent, warning, error)`);
	});

	it('reports bad JSON with the file name', () => {
		const file = path.join(dir, 'broken.json');
		writeFileSync(file, '{"name": "broken",\n}');
		const {message} = errorOf(() => loadTheme(file, {noColor: false}));
		expect(message.startsWith(`theme ${file}: not valid JSON at line 2, column 1 (`)).toBe(true);
		expect(message.endsWith('); fix the syntax')).toBe(true);
	});

	it('reports a missing file and lists the shipped themes', () => {
		const file = path.join(dir, 'nope.json');
		expect(errorOf(() => loadTheme(file, {noColor: false})).message).toBe(`theme ${file}: file not found; check the path, or use a shipped theme: dark, light, no-color`);
	});

	it.skipIf(!existsSync('/dev/zero'))('refuses /dev/zero as a theme with a ThemeError', () => {
		expect(() => loadTheme('/dev/zero', {noColor: false})).toThrow(ThemeError);
		expect(() => loadTheme('/dev/zero', {noColor: false})).toThrow(/theme \/dev\/zero: is a device, not a regular file/);
	});
});

describe('theme names', () => {
	it('an unknown name lists the available themes', () => {
		expect(errorOf(() => loadTheme('solarized', {noColor: false})).message).toBe('theme "solarized": no such theme; use one of dark, light, no-color, or a path to a .json theme file');
	});
});
