// The key-descriptor grammar: how a key is written in the binding table and in delegate.yaml,
// how a keypress as Ink reports it is matched against one, and how one is shown.
//
// A descriptor is one printable character, case-sensitive ('q', 'K', '?'), or a key name, with
// optional modifiers: 'ctrl+c', 'alt+x', 'shift+tab', 'ctrl+up'. Shift is spelled by the letter's
// case ('K'), because that is how a terminal reports it.
import type {Key as InkKey} from 'ink';

export type KeySpec = {base: string; named: boolean; ctrl: boolean; alt: boolean; shift: boolean};

export const arrowGlyphs: Readonly<Record<string, string>> = {up: '↑', down: '↓', left: '←', right: '→'};
const namedDisplay: Readonly<Record<string, string>> = {
	...arrowGlyphs, tab: 'Tab', enter: 'Enter', escape: 'Esc', pageup: 'PgUp', pagedown: 'PgDn', home: 'Home', end: 'End', space: 'Space',
};
const aliases: Readonly<Record<string, string>> = {esc: 'escape', return: 'enter', pgup: 'pageup', pgdn: 'pagedown'};
// Terminals report modifiers reliably only with these; e.g. shift+enter arrives as plain enter.
const modifiable: ReadonlySet<string> = new Set(['up', 'down', 'left', 'right', 'pageup', 'pagedown', 'home', 'end']);
// The terminal sends these ctrl+letters as the byte of another key, so they could never match.
const ctrlAliases: Readonly<Record<string, string>> = {h: 'backspace', i: 'tab', j: 'enter', m: 'enter'};

const grammar = 'write one character ("q", "K", "?"), or a key name (up, down, left, right, tab, enter, escape, pageup, pagedown, home, end, space), optionally after ctrl+, alt+ or shift+ (e.g. "ctrl+c", "shift+tab")';

/** The parsed key, or the reason the descriptor is not one. */
export function parseKey(descriptor: string): KeySpec | string {
	const match = /^((?:(?:ctrl|alt|meta|shift)\+)*)(.+)$/i.exec(descriptor);
	if (!match) {
		return `empty key; ${grammar}`;
	}

	const modifiers = (match[1] ?? '').toLowerCase();
	let base = match[2] ?? '';
	const spec: KeySpec = {base, named: [...base].length > 1, ctrl: modifiers.includes('ctrl+'), alt: /alt\+|meta\+/.test(modifiers), shift: modifiers.includes('shift+')};
	if (spec.named) {
		base = base.toLowerCase();
		base = Object.hasOwn(aliases, base) ? aliases[base] ?? base : base;
		if (!Object.hasOwn(namedDisplay, base)) {
			return `unknown key "${descriptor}"; ${grammar}`;
		}

		const allowsShift = modifiable.has(base) || base === 'tab';
		if ((spec.ctrl || spec.alt) && !modifiable.has(base)) {
			return `terminals do not report ctrl/alt with ${base}; bind ${base} alone or another key`;
		}

		if (spec.shift && !allowsShift) {
			return `terminals do not report shift with ${base}; bind ${base} alone or another key`;
		}

		return {...spec, base};
	}

	if (base === ' ') {
		return 'write "space" for the space bar';
	}

	if (/[\u0000-\u001F\u007F]/.test(base)) {
		return `${JSON.stringify(base)} is a control character; ${grammar}`;
	}

	if (spec.shift) {
		return /[a-z]/i.test(base) ? `write "${base.toUpperCase()}" for shift+${base.toLowerCase()}` : `shift+ goes with key names only; write the character you type, e.g. "?"`;
	}

	if (spec.ctrl) {
		if (!/^[a-z]$/i.test(base)) {
			return `ctrl+ goes with a letter or a key name, not "${base}"`;
		}

		// Terminals cannot tell ctrl+c from ctrl+C; accept either spelling.
		base = base.toLowerCase();
		const other = ctrlAliases[base];
		if (other) {
			return `terminals send ctrl+${base} as ${other}; bind ${other} or another ctrl+letter instead`;
		}
	}

	return {...spec, base};
}

/** One spelling per key, so that 'Esc' and 'escape' are the same binding. */
export function canonical(spec: KeySpec): string {
	return `${spec.ctrl ? 'ctrl+' : ''}${spec.alt ? 'alt+' : ''}${spec.shift ? 'shift+' : ''}${spec.base}`;
}

const parsed = new Map<string, KeySpec>();

/** The parsed key of a descriptor already known to be valid (the table's, or resolved ones). */
export function specOf(descriptor: string): KeySpec {
	let spec = parsed.get(descriptor);
	if (!spec) {
		const result = parseKey(descriptor);
		if (typeof result === 'string') {
			throw new TypeError(`key "${descriptor}": ${result}`);
		}

		spec = result;
		parsed.set(descriptor, spec);
	}

	return spec;
}

/** True for keys that type text, which a text field must receive instead of a command. */
export function isTextKey(spec: KeySpec): boolean {
	return !spec.ctrl && !spec.alt && (!spec.named || spec.base === 'space');
}

const namedKeyDown: Readonly<Record<string, (input: string, key: InkKey) => boolean>> = {
	up: (_, key) => key.upArrow,
	down: (_, key) => key.downArrow,
	left: (_, key) => key.leftArrow,
	right: (_, key) => key.rightArrow,
	pageup: (_, key) => key.pageUp,
	pagedown: (_, key) => key.pageDown,
	home: (_, key) => key.home,
	end: (_, key) => key.end,
	tab: (_, key) => key.tab,
	// Ink reports '\r' as return; a bare '\n' (some terminals, piped input) only as input.
	enter: (input, key) => key.return || input === '\n',
	escape: (_, key) => key.escape,
	space: input => input === ' ',
};

/** Does this keypress, as Ink's useInput reports it, match the descriptor? */
export function keyMatches(descriptor: string, input: string, key: InkKey): boolean {
	if (key.eventType === 'release') {
		return false;
	}

	const spec = specOf(descriptor);
	if (spec.ctrl !== key.ctrl) {
		return false;
	}

	if (spec.named) {
		// Ink marks every escape as meta, so alt cannot be told apart there.
		const altMatches = spec.base === 'escape' || spec.alt === key.meta;
		return altMatches && spec.shift === key.shift && (namedKeyDown[spec.base]?.(input, key) ?? false);
	}

	if (spec.alt !== key.meta) {
		return false;
	}

	const lower = spec.base.toLowerCase();
	if (lower === spec.base.toUpperCase()) {
		return input === spec.base;
	}

	// Letters: legacy terminals send 'K'; the kitty protocol may send 'k' with shift held.
	return spec.base === lower ? input === lower && !key.shift : input === spec.base || (input === lower && key.shift);
}

/** How a key is shown in the footer and help: '↑', 'PgUp', 'Esc', 'Ctrl+C'. */
export function formatKey(descriptor: string): string {
	const spec = parseKey(descriptor);
	if (typeof spec === 'string') {
		return descriptor;
	}

	const modifiers = `${spec.ctrl ? 'Ctrl+' : ''}${spec.alt ? 'Alt+' : ''}${spec.shift ? 'Shift+' : ''}`;
	const base = spec.named ? namedDisplay[spec.base] ?? spec.base : spec.ctrl ? spec.base.toUpperCase() : spec.base;
	return modifiers + base;
}
