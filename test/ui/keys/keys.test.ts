import {useInput, type Key as InkKey} from 'ink';
import {render} from 'ink-testing-library';
import {createElement, useEffect} from 'react';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {InputError} from '../../../src/core/errors.js';
import {formatKey, keyMatches} from '../../../src/ui/keys/key-descriptor.js';
import {
	commands,
	defaultBindings,
	footerHints,
	helpEntries,
	KeyBindingError,
	matchCommand,
	resolveBindings,
	type Bindings,
	type Command,
	type KeyContext,
} from '../../../src/ui/keys/keys.js';

const contexts: KeyContext[] = ['grid', 'zoom', 'confirm', 'help', 'search'];

// Key objects come from a real Ink app reading a fake terminal, so the tests cover what
// useInput actually reports (escape sets meta, shift+tab is tab+shift, ctrl+c is 'c'+ctrl).
type Press = {input: string; key: InkKey};
let waiting: ((press: Press) => void) | undefined;
let app: ReturnType<typeof render>;

function Probe({onReady}: {onReady: () => void}) {
	useInput((input, key) => {
		waiting?.({input, key});
	});
	// Runs after useInput's own effect, so input written after this is heard; once, on mount.
	// biome-ignore lint/correctness/useExhaustiveDependencies: once on mount is the point.
	useEffect(onReady, []);
	return null;
}

beforeAll(async () => {
	await new Promise<void>(resolve => {
		app = render(createElement(Probe, {onReady: resolve}));
	});
});

afterAll(() => {
	app.unmount();
});

async function press(sequence: string): Promise<Press> {
	const pressed = new Promise<Press>(resolve => {
		waiting = resolve;
	});
	app.stdin.write(sequence);
	return pressed;
}

async function commandFor(context: KeyContext, sequence: string, bindings: Bindings = defaultBindings): Promise<Command | undefined> {
	const {input, key} = await press(sequence);
	return matchCommand(bindings, context, input, key);
}

const terminal = {
	up: '\u001B[A', down: '\u001B[B', right: '\u001B[C', left: '\u001B[D', tab: '\t', 'shift+tab': '\u001B[Z', enter: '\r',
	escape: '\u001B', pageup: '\u001B[5~', pagedown: '\u001B[6~', home: '\u001B[H', end: '\u001B[F', 'ctrl+c': '\u0003', 'ctrl+l': '\u000C', 'alt+k': '\u001Bk',
} as const;

/** What a terminal sends for a descriptor used in the default table. */
function sequenceOf(descriptor: string): string {
	return (terminal as Record<string, string>)[descriptor] ?? descriptor;
}

function blankKey(overrides: Partial<InkKey> = {}): InkKey {
	return {
		upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false,
		return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false,
		super: false, hyper: false, capsLock: false, numLock: false, ...overrides,
	};
}

function bindingError(overrides: Record<string, string[]>): KeyBindingError {
	try {
		resolveBindings(overrides);
	} catch (error) {
		expect(error).toBeInstanceOf(KeyBindingError);
		return error as KeyBindingError;
	}

	throw new Error('expected a KeyBindingError');
}

describe('the default table', () => {
	it('binds every command to at least one key that works somewhere', () => {
		for (const command of commands) {
			expect(defaultBindings.get(command)?.length, command).toBeGreaterThan(0);
			expect(helpEntries(defaultBindings).some(entry => entry.command === command), command).toBe(true);
		}
	});

	it('never gives one key to two commands in the same context', () => {
		for (const context of contexts) {
			const keys = helpEntries(defaultBindings, context).flatMap(entry => entry.keys.split(' '));
			expect(keys.filter((key, index) => keys.indexOf(key) !== index), context).toEqual([]);
		}
	});

	it('every key the help shows in a context triggers its command there', async () => {
		for (const context of contexts) {
			for (const entry of helpEntries(defaultBindings, context)) {
				for (const descriptor of defaultBindings.get(entry.command) ?? []) {
					if (!entry.keys.split(' ').includes(formatKey(descriptor))) {
						continue;
					}

					expect(await commandFor(context, sequenceOf(descriptor)), `${context} ${descriptor}`).toBe(entry.command);
				}
			}
		}
	});
});

describe('matchCommand with keys as Ink reports them', () => {
	it('arrows and h/j/k/l move focus in the grid and scroll in the zoom view', async () => {
		expect(await commandFor('grid', terminal.up)).toBe('focus.up');
		expect(await commandFor('grid', 'l')).toBe('focus.right');
		expect(await commandFor('zoom', terminal.down)).toBe('scroll.down');
		expect(await commandFor('zoom', 'k')).toBe('scroll.up');
	});

	it('tells letters apart by case', async () => {
		expect(await commandFor('grid', 'K')).toBe('task.kill');
		expect(await commandFor('zoom', 'K')).toBe('task.kill');
		expect(await commandFor('grid', 'L')).toBe('layout.toggle');
		expect(await commandFor('zoom', 'G')).toBe('scroll.bottom');
		expect(await commandFor('zoom', 'N')).toBe('search.prev');
		expect(await commandFor('zoom', 'n')).toBe('search.next');
	});

	it('tab and shift+tab cycle focus', async () => {
		expect(await commandFor('grid', terminal.tab)).toBe('focus.next');
		expect(await commandFor('grid', terminal['shift+tab'])).toBe('focus.prev');
	});

	it('escape closes whatever is open; in the grid it clears the text filter (/), if any', async () => {
		expect(await commandFor('zoom', terminal.escape)).toBe('zoom.close');
		expect(await commandFor('help', terminal.escape)).toBe('zoom.close');
		expect(await commandFor('confirm', terminal.escape)).toBe('confirm.no');
		expect(await commandFor('search', terminal.escape)).toBe('search.cancel');
		expect(await commandFor('grid', terminal.escape)).toBe('filter.clear');
		expect(await commandFor('filter', terminal.escape)).toBe('filter.cancel');
	});

	it('ctrl+c quits from every context, including while typing a search', async () => {
		for (const context of contexts) {
			expect(await commandFor(context, terminal['ctrl+c']), context).toBe('app.quit');
		}
	});

	it('ctrl+l redraws the screen from every context, including while typing a search or a filter', async () => {
		for (const context of [...contexts, 'filter', 'route-edit', 'routes'] as const) {
			expect(await commandFor(context, terminal['ctrl+l']), context).toBe('screen.redraw');
		}
	});

	it('letters typed into the search field are text, not commands', async () => {
		expect(await commandFor('search', 'q')).toBeUndefined();
		expect(await commandFor('search', 'n')).toBeUndefined();
		expect(await commandFor('search', terminal.enter)).toBe('search.submit');
	});

	it('a modifier the binding does not ask for stops a match', async () => {
		expect(await commandFor('grid', terminal['alt+k'])).toBeUndefined();
		expect(await commandFor('grid', 'c')).toBe('task.cancel');
		expect(await commandFor('grid', '\u0001')).toBeUndefined();
	});

	it('keys of other contexts do nothing', async () => {
		expect(await commandFor('grid', 'n')).toBeUndefined();
		expect(await commandFor('confirm', 'c')).toBeUndefined();
		expect(await commandFor('help', 'K')).toBeUndefined();
	});

	it('a confirm prompt is answered only by its own keys: q does nothing there, ctrl+c still quits', async () => {
		expect(await commandFor('confirm', 'q')).toBeUndefined();
		expect(await commandFor('confirm', 'y')).toBe('confirm.yes');
		expect(await commandFor('confirm', terminal['ctrl+c'])).toBe('app.quit');
		expect(helpEntries(defaultBindings, 'confirm').find(entry => entry.command === 'app.quit')?.keys).toBe('Ctrl+C');
		// So answering with a key that quits elsewhere is no clash.
		expect(resolveBindings({'confirm.yes': ['q']}).get('confirm.yes')).toEqual(['q']);
	});
});

describe('keyMatches with kitty-protocol key shapes', () => {
	it('reads shift held with a lowercase letter as the capital', () => {
		expect(keyMatches('K', 'k', blankKey({shift: true}))).toBe(true);
		expect(keyMatches('k', 'k', blankKey({shift: true}))).toBe(false);
	});

	it('ignores key releases', () => {
		expect(keyMatches('q', 'q', blankKey({eventType: 'release'}))).toBe(false);
		expect(keyMatches('q', 'q', blankKey({eventType: 'press'}))).toBe(true);
	});
});

describe('overrides from delegate.yaml', () => {
	it('replace the defaults for that command only', async () => {
		// (x is the routes editor's remove, so an x for quit would clash there.)
		const bindings = resolveBindings({'app.quit': ['z', 'ctrl+q'], 'focus.up': ['w']});
		expect(bindings.get('app.quit')).toEqual(['z', 'ctrl+q', 'ctrl+c']);
		expect(await commandFor('grid', 'q', bindings)).toBeUndefined();
		expect(await commandFor('grid', 'z', bindings)).toBe('app.quit');
		expect(await commandFor('grid', '\u0011', bindings)).toBe('app.quit');
		expect(await commandFor('grid', 'k', bindings)).toBeUndefined();
		expect(await commandFor('grid', 'w', bindings)).toBe('focus.up');
		expect(await commandFor('grid', 'j', bindings)).toBe('focus.down');
	});

	it('accept aliases and write them canonically', () => {
		const bindings = resolveBindings({'zoom.close': ['Esc', 'q'], 'help.toggle': ['ctrl+G'], 'app.quit': ['ctrl+c']});
		expect(bindings.get('zoom.close')).toEqual(['escape', 'q']);
		expect(bindings.get('help.toggle')).toEqual(['ctrl+g']);
	});

	it('reject an unknown command, naming it and the commands there are', () => {
		const error = bindingError({'task.nuke': ['x']});
		expect(error.message).toMatch(/^delegate\.yaml keys\.task\.nuke: unknown command; the commands are focus\.up, .*task\.kill/);
		expect(error).toBeInstanceOf(InputError);
		expect(error.location).toEqual({file: 'delegate.yaml', path: 'keys.task.nuke'});
	});

	it('reject keys a terminal cannot send, with the fix', () => {
		expect(bindingError({'task.kill': ['ctlr+k']}).message).toMatch(/^delegate\.yaml keys\.task\.kill\[0\]: "ctlr\+k" is not a key: unknown key "ctlr\+k"; write one character/);
		expect(bindingError({'task.kill': ['x', 'shift+k']}).message).toBe('delegate.yaml keys.task.kill[1]: "shift+k" is not a key: write "K" for shift+k');
		expect(bindingError({'focus.next': ['ctrl+i']}).message).toContain('terminals send ctrl+i as tab; bind tab');
		expect(bindingError({'search.start': [' ']}).message).toContain('write "space" for the space bar');
		expect(bindingError({'search.start': ['constructor']}).message).toContain('unknown key "constructor"');
		expect(bindingError({'app.quit': []}).message).toBe('delegate.yaml keys.app.quit: no keys; list at least one, e.g. ["q"]');
	});

	it('reject a key that another command already answers in the same context', () => {
		expect(bindingError({'task.kill': ['k']}).message).toBe('delegate.yaml keys.task.kill: "k" is also bound to focus.up in the grid and to scroll.up in the zoom view; choose another key, or rebind focus.up and scroll.up too');
		// Moving the other binding away first makes the same key fine.
		expect(resolveBindings({'task.kill': ['k'], 'focus.up': ['up'], 'scroll.up': ['up']}).get('task.kill')).toEqual(['k']);
	});

	it('allow a text key in the search field context without clashing with typing', () => {
		expect(resolveBindings({'search.cancel': ['escape', 'ctrl+g']}).get('search.cancel')).toEqual(['escape', 'ctrl+g']);
	});
});

describe('help and footer are generated from the bindings', () => {
	it('the help shows every key of a command, formatted, and follows overrides', () => {
		const entry = (bindings: Bindings, command: Command) => helpEntries(bindings, 'zoom').find(item => item.command === command);
		expect(entry(defaultBindings, 'scroll.up')?.keys).toBe('↑ k');
		expect(entry(defaultBindings, 'app.quit')?.keys).toBe('q Ctrl+C');
		expect(entry(resolveBindings({'app.quit': ['z']}), 'app.quit')?.keys).toBe('z Ctrl+C');
	});

	it('help for a context lists only commands that work there', () => {
		const grid = helpEntries(defaultBindings, 'grid').map(entry => entry.command);
		expect(grid).toContain('task.zoom');
		expect(grid).not.toContain('scroll.up');
		const search = helpEntries(defaultBindings, 'search');
		expect(search.map(entry => [entry.command, entry.keys])).toEqual([['search.submit', 'Enter'], ['search.cancel', 'Esc'], ['screen.redraw', 'Ctrl+L'], ['app.quit', 'Ctrl+C']]);
	});

	it('the grid footer groups movement and shows the first key of each command', () => {
		expect(footerHints(defaultBindings, 'grid')).toEqual([
			{keys: '↑↓←→', label: 'move'},
			{keys: 'Enter', label: 'zoom'},
			{keys: 'c', label: 'cancel'},
			{keys: 'K', label: 'kill'},
			{keys: 'R', label: 're-route'},
			{keys: 'L', label: 'layout'},
			{keys: 'm', label: 'mode'},
			{keys: 'r', label: 'routes'},
			{keys: '$', label: 'spend'},
			{keys: '?', label: 'help', pinned: true},
			{keys: 'q', label: 'quit', pinned: true},
			{keys: 'd', label: 'detach'},
			{keys: 'y', label: 'copy'},
			{keys: 'o', label: 'open log'},
			{keys: '/', label: 'filter'},
			{keys: 'Esc', label: 'clear filter'},
			{keys: 's', label: 'sort'},
			{keys: 'f', label: 'status'},
		]);
	});

	it('the footer leaves out what is unavailable right now', () => {
		const succeeded = (command: Command) => !['task.cancel', 'task.kill', 'task.reroute', 'task.copy', 'search.next', 'search.prev'].includes(command);
		const zoom = footerHints(defaultBindings, 'zoom', {available: succeeded});
		expect(zoom.map(hint => hint.label)).toEqual(['scroll', 'page', 'cut lines', 'search', 'back', 'spend', 'help', 'quit', 'detach', 'open log']);
		expect(footerHints(defaultBindings, 'zoom').find(hint => hint.label === 'match')?.keys).toBe('n/N');
	});

	it('the footer follows overrides', () => {
		const hints = footerHints(resolveBindings({'app.quit': ['z'], 'focus.up': ['w']}), 'grid');
		expect(hints).toContainEqual({keys: 'z', label: 'quit', pinned: true});
		expect(hints[0]).toEqual({keys: 'w/↓/←/→', label: 'move'});
	});

	it('a key the routes editor uses cannot also quit: the clash is named with the fix', () => {
		expect(bindingError({'app.quit': ['x']}).message).toMatch(/keys\.app\.quit: "x" is also bound to routes\.remove in the routes editor; choose another key, or rebind routes\.remove too/);
	});

	it('formats keys for people', () => {
		expect(['up', 'pageup', 'pagedown', 'escape', 'ctrl+c', 'shift+tab', 'K', 'enter', 'alt+x'].map(formatKey))
			.toEqual(['↑', 'PgUp', 'PgDn', 'Esc', 'Ctrl+C', 'Shift+Tab', 'K', 'Enter', 'Alt+x']);
	});
});

describe('ctrl+c', () => {
	it('still quits when app.quit is remapped without it', () => {
		expect(resolveBindings({'app.quit': ['Q']}).get('app.quit')).toEqual(['Q', 'ctrl+c']);
	});
});
