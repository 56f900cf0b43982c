// The one keybinding table. Every component matches keys through it, and the footer and the
// `?` help are generated from it, so a remapped key (delegate.yaml `keys:`) changes all three.
import type {Key as InkKey} from 'ink';
import {InputError} from '../core/errors.js';

/** Where the keyboard is: decides which commands a key can mean. */
export type KeyContext = 'grid' | 'zoom' | 'confirm' | 'help' | 'search';

export type Command =
	| 'focus.up' | 'focus.down' | 'focus.left' | 'focus.right' | 'focus.next' | 'focus.prev'
	| 'task.zoom' | 'zoom.close'
	| 'scroll.up' | 'scroll.down' | 'scroll.pageUp' | 'scroll.pageDown' | 'scroll.top' | 'scroll.bottom'
	| 'search.start' | 'search.next' | 'search.prev' | 'search.submit' | 'search.cancel'
	| 'task.cancel' | 'task.kill' | 'confirm.yes' | 'confirm.no'
	| 'layout.toggle' | 'help.toggle' | 'app.quit';

type Entry = {
	command: Command;
	keys: readonly string[];
	/** One or two words for the footer. */
	label: string;
	/** A sentence for the help overlay. */
	description: string;
	contexts: readonly KeyContext[];
	/** Commands sharing a group share one footer hint, labelled with the group: "↑↓←→ move". */
	group?: string;
	/** false: listed in help but not worth footer space. */
	footer?: boolean;
};

const everywhere: readonly KeyContext[] = ['grid', 'zoom', 'confirm', 'help', 'search'];

const table: readonly Entry[] = [
	{command: 'focus.up', keys: ['up', 'k'], label: 'up', description: 'Focus the pane above', contexts: ['grid'], group: 'move'},
	{command: 'focus.down', keys: ['down', 'j'], label: 'down', description: 'Focus the pane below', contexts: ['grid'], group: 'move'},
	{command: 'focus.left', keys: ['left', 'h'], label: 'left', description: 'Focus the pane to the left', contexts: ['grid'], group: 'move'},
	{command: 'focus.right', keys: ['right', 'l'], label: 'right', description: 'Focus the pane to the right', contexts: ['grid'], group: 'move'},
	{command: 'focus.next', keys: ['tab'], label: 'next', description: 'Focus the next task', contexts: ['grid'], footer: false},
	{command: 'focus.prev', keys: ['shift+tab'], label: 'previous', description: 'Focus the previous task', contexts: ['grid'], footer: false},
	{command: 'task.zoom', keys: ['enter'], label: 'zoom', description: 'Open the focused task full-screen: all its output, scrollable and searchable', contexts: ['grid']},
	{command: 'scroll.up', keys: ['up', 'k'], label: 'up', description: 'Scroll up one line', contexts: ['zoom'], group: 'scroll'},
	{command: 'scroll.down', keys: ['down', 'j'], label: 'down', description: 'Scroll down one line', contexts: ['zoom'], group: 'scroll'},
	{command: 'scroll.pageUp', keys: ['pageup'], label: 'page up', description: 'Scroll up one page', contexts: ['zoom'], group: 'page'},
	{command: 'scroll.pageDown', keys: ['pagedown'], label: 'page down', description: 'Scroll down one page', contexts: ['zoom'], group: 'page'},
	{command: 'scroll.top', keys: ['g', 'home'], label: 'top', description: 'Jump to the start of the output', contexts: ['zoom'], footer: false},
	{command: 'scroll.bottom', keys: ['G', 'end'], label: 'bottom', description: 'Jump to the end of the output and follow it', contexts: ['zoom'], footer: false},
	{command: 'search.start', keys: ['/'], label: 'search', description: 'Search the task output', contexts: ['zoom']},
	{command: 'search.next', keys: ['n'], label: 'next', description: 'Jump to the next match', contexts: ['zoom'], group: 'match'},
	{command: 'search.prev', keys: ['N'], label: 'previous', description: 'Jump to the previous match', contexts: ['zoom'], group: 'match'},
	{command: 'search.submit', keys: ['enter'], label: 'find', description: 'Search for what was typed and jump to the first match', contexts: ['search']},
	{command: 'search.cancel', keys: ['escape'], label: 'cancel', description: 'Stop searching and clear the query', contexts: ['search']},
	{command: 'zoom.close', keys: ['escape'], label: 'back', description: 'Close the zoomed task or this help', contexts: ['zoom', 'help']},
	{command: 'task.cancel', keys: ['c'], label: 'cancel', description: 'Cancel the focused task (asks first): stop signal, then a forced kill after the grace period', contexts: ['grid', 'zoom']},
	{command: 'task.kill', keys: ['K'], label: 'kill', description: 'Kill the focused task now, skipping the grace period (asks first)', contexts: ['grid', 'zoom']},
	{command: 'confirm.yes', keys: ['y'], label: 'yes', description: 'Confirm', contexts: ['confirm']},
	{command: 'confirm.no', keys: ['n', 'escape'], label: 'no', description: 'Back out', contexts: ['confirm']},
	{command: 'layout.toggle', keys: ['L'], label: 'layout', description: 'Switch between the grid and the list layout', contexts: ['grid']},
	{command: 'help.toggle', keys: ['?'], label: 'help', description: 'Show or hide this help', contexts: ['grid', 'zoom', 'help']},
	{command: 'app.quit', keys: ['q', 'ctrl+c'], label: 'quit', description: 'Quit (asks first while tasks are still running)', contexts: everywhere},
];

// Typing into the search field must reach the field: there, only keys that cannot be text act.
const textEntryContexts: ReadonlySet<KeyContext> = new Set(['search']);

const contextNames: Readonly<Record<KeyContext, string>> = {
	grid: 'the grid', zoom: 'the zoom view', confirm: 'a confirm prompt', help: 'the help overlay', search: 'the search field',
};

export const commands: readonly Command[] = table.map(entry => entry.command);

export type Bindings = ReadonlyMap<Command, readonly string[]>;

// --- Key descriptors -------------------------------------------------------------------------
// A descriptor is one printable character, case-sensitive ('q', 'K', '?'), or a key name, with
// optional modifiers: 'ctrl+c', 'alt+x', 'shift+tab', 'ctrl+up'. Shift is spelled by the letter's
// case ('K'), because that is how a terminal reports it.

type KeySpec = {base: string; named: boolean; ctrl: boolean; alt: boolean; shift: boolean};

const arrowGlyphs: Readonly<Record<string, string>> = {up: '↑', down: '↓', left: '←', right: '→'};
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
function parseKey(descriptor: string): KeySpec | string {
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

function canonical(spec: KeySpec): string {
	return `${spec.ctrl ? 'ctrl+' : ''}${spec.alt ? 'alt+' : ''}${spec.shift ? 'shift+' : ''}${spec.base}`;
}

const parsed = new Map<string, KeySpec>();

function specOf(descriptor: string): KeySpec {
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
function isTextKey(spec: KeySpec): boolean {
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

// --- Resolving the table with the operator's overrides ---------------------------------------

/** A bad `keys:` entry in delegate.yaml; the message names `keys.<command>` and the fix. */
export class KeyBindingError extends InputError {
	constructor(lines: readonly string[], file: string, path?: string) {
		super(lines.join('\n'), {file, path});
		this.name = 'KeyBindingError';
	}

	override describe(): string {
		return this.message;
	}
}

function isCommand(name: string): name is Command {
	return (commands as readonly string[]).includes(name);
}

/**
 * The defaults with delegate.yaml's `keys:` applied: each listed command's keys replace its
 * defaults. Rejects unknown commands, keys a terminal cannot send, and two commands that would
 * answer the same key in the same place.
 */
export function resolveBindings(overrides: Readonly<Record<string, readonly string[]>>, source = 'delegate.yaml'): Bindings {
	const problems: Array<{path: string; text: string}> = [];
	const bindings = new Map<Command, readonly string[]>(table.map(entry => [entry.command, entry.keys.map(key => canonical(specOf(key)))]));
	for (const [name, keys] of Object.entries(overrides)) {
		const at = `keys.${name}`;
		if (!isCommand(name)) {
			problems.push({path: at, text: `unknown command; the commands are ${commands.join(', ')}`});
			continue;
		}

		if (keys.length === 0) {
			problems.push({path: at, text: `no keys; list at least one, e.g. ["${formatKey(table.find(entry => entry.command === name)?.keys[0] ?? 'q')}"]`});
			continue;
		}

		const resolved: string[] = [];
		for (const [index, descriptor] of keys.entries()) {
			const spec = parseKey(descriptor);
			if (typeof spec === 'string') {
				problems.push({path: `${at}[${index}]`, text: `"${descriptor}" is not a key: ${spec}`});
			} else if (!resolved.includes(canonical(spec))) {
				resolved.push(canonical(spec));
			}
		}

		bindings.set(name, resolved);
	}

	if (problems.length === 0) {
		problems.push(...conflicts(bindings, overrides));
	}

	if (problems.length > 0) {
		throw new KeyBindingError(problems.map(problem => `${source} ${problem.path}: ${problem.text}`), source, problems[0]?.path);
	}

	return bindings;
}

function conflicts(bindings: Bindings, overrides: Readonly<Record<string, unknown>>): Array<{path: string; text: string}> {
	// One problem per (command, key), listing every place it clashes, so one edit fixes it.
	const clashes = new Map<string, {blamed: Command; key: string; with: string[]; rebind: Set<Command>}>();
	for (const context of everywhere) {
		const owner = new Map<string, Command>();
		for (const entry of entriesIn(context)) {
			for (const key of activeKeys(bindings, entry.command, context)) {
				const other = owner.get(key);
				if (!other) {
					owner.set(key, entry.command);
					continue;
				}

				const [blamed, kept] = entry.command in overrides ? [entry.command, other] : [other, entry.command];
				const clash = clashes.get(`${blamed} ${key}`) ?? {blamed, key, with: [], rebind: new Set<Command>()};
				clash.with.push(`${kept} in ${contextNames[context]}`);
				clash.rebind.add(kept);
				clashes.set(`${blamed} ${key}`, clash);
			}
		}
	}

	return [...clashes.values()].map(clash => ({
		path: `keys.${clash.blamed}`,
		text: `"${clash.key}" is also bound to ${clash.with.join(' and to ')}; choose another key, or rebind ${[...clash.rebind].join(' and ')} too`,
	}));
}

export const defaultBindings: Bindings = resolveBindings({});

// --- Matching and describing -------------------------------------------------------------------

function entriesIn(context: KeyContext): Entry[] {
	return table.filter(entry => entry.contexts.includes(context));
}

/** The keys of a command that can act in a context (text keys are typing in the search field). */
function activeKeys(bindings: Bindings, command: Command, context: KeyContext | undefined): string[] {
	const keys = bindings.get(command) ?? [];
	return context && textEntryContexts.has(context) ? keys.filter(descriptor => !isTextKey(specOf(descriptor))) : [...keys];
}

/** The command this keypress means in this context, if any. */
export function matchCommand(bindings: Bindings, context: KeyContext, input: string, key: InkKey): Command | undefined {
	return entriesIn(context).find(entry => activeKeys(bindings, entry.command, context).some(descriptor => keyMatches(descriptor, input, key)))?.command;
}

export type HelpEntry = {command: Command; keys: string; label: string; description: string; contexts: readonly KeyContext[]};

/** Rows for the help overlay: every command that works in `context` (all commands without one). */
export function helpEntries(bindings: Bindings, context?: KeyContext): HelpEntry[] {
	const entries = context ? entriesIn(context) : table;
	return entries.flatMap(entry => {
		const keys = activeKeys(bindings, entry.command, context);
		return keys.length > 0 ? [{command: entry.command, keys: keys.map(formatKey).join(' '), label: entry.label, description: entry.description, contexts: entry.contexts}] : [];
	});
}

export type KeyHint = {keys: string; label: string};

/** The footer: one hint per command (or group) usable right now, showing its first key. */
export function footerHints(bindings: Bindings, context: KeyContext, available: (command: Command) => boolean = () => true): KeyHint[] {
	const hints: Array<KeyHint & {group?: string | undefined; arrows: boolean}> = [];
	for (const entry of entriesIn(context)) {
		const first = activeKeys(bindings, entry.command, context)[0];
		if (entry.footer === false || first === undefined || !available(entry.command)) {
			continue;
		}

		const shown = formatKey(first);
		const arrows = Object.values(arrowGlyphs).includes(shown);
		const previous = hints.at(-1);
		if (entry.group && previous?.group === entry.group) {
			previous.keys += previous.arrows && arrows ? shown : `/${shown}`;
			previous.arrows &&= arrows;
		} else {
			hints.push({keys: shown, label: entry.group ?? entry.label, group: entry.group, arrows});
		}
	}

	return hints.map(({keys, label}) => ({keys, label}));
}
