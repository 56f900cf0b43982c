// The one keybinding table. Every component matches keys through it, and the footer and the
// `?` help are generated from it, so a remapped key (delegate.yaml `keys:`) changes all three.
// Past ~300 lines because the table is the point: every command's keys, contexts and sentences in
// one list, with the overrides' checks and the footer's and help's views of that same list.
import type {Key as InkKey} from 'ink';
import {InputError} from '../../core/errors.js';
import type {OverlayContext} from '../../state/overlay.js';
import {arrowGlyphs, canonical, formatKey, isTextKey, keyMatches, parseKey, specOf} from './key-descriptor.js';

/** Where the keyboard is: decides which commands a key can mean. The grid, or an overlay's (state/overlay.ts). */
export type KeyContext = 'grid' | OverlayContext;

export type Command =
	| 'focus.up' | 'focus.down' | 'focus.left' | 'focus.right' | 'focus.next' | 'focus.prev'
	| 'task.zoom' | 'zoom.close'
	| 'scroll.up' | 'scroll.down' | 'scroll.left' | 'scroll.right' | 'zoom.wrap' | 'scroll.pageUp' | 'scroll.pageDown' | 'scroll.top' | 'scroll.bottom'
	| 'search.start' | 'search.next' | 'search.prev' | 'search.submit' | 'search.cancel'
	| 'task.cancel' | 'task.kill' | 'confirm.yes' | 'confirm.no'
	| 'task.copy' | 'task.pager' | 'filter.start' | 'filter.submit' | 'filter.cancel' | 'filter.clear' | 'layout.toggle' | 'view.sort' | 'view.filter' | 'help.toggle' | 'spend.toggle' | 'screen.redraw' | 'app.quit' | 'app.detach'
	| 'routing.mode' | 'routes.open' | 'routes.up' | 'routes.down' | 'routes.edit' | 'routes.model' | 'routes.provider' | 'routes.effort' | 'routes.add' | 'routes.remove' | 'routes.reload' | 'routes.default' | 'routes.close'
	| 'field.submit' | 'field.cancel' | 'task.reroute' | 'pick.submit';

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
	/** Kept in a footer too narrow for every hint: with help and quit, the operator finds the rest. */
	pinned?: boolean;
};

const everywhere: readonly KeyContext[] = ['grid', 'zoom', 'confirm', 'help', 'spend', 'search', 'routes', 'route-edit', 'route-pick', 'filter'];

const table: readonly Entry[] = [
	{command: 'focus.up', keys: ['up', 'k'], label: 'up', description: 'Focus the pane above', contexts: ['grid'], group: 'move'},
	{command: 'focus.down', keys: ['down', 'j'], label: 'down', description: 'Focus the pane below', contexts: ['grid'], group: 'move'},
	{command: 'focus.left', keys: ['left', 'h'], label: 'left', description: 'Focus the pane to the left', contexts: ['grid'], group: 'move'},
	{command: 'focus.right', keys: ['right', 'l'], label: 'right', description: 'Focus the pane to the right', contexts: ['grid'], group: 'move'},
	{command: 'focus.next', keys: ['tab'], label: 'next', description: 'Focus the next task', contexts: ['grid'], footer: false},
	{command: 'focus.prev', keys: ['shift+tab'], label: 'previous', description: 'Focus the previous task', contexts: ['grid'], footer: false},
	{command: 'task.zoom', keys: ['enter'], label: 'zoom', description: 'Open the focused task full-screen: all its output, scrollable and searchable', contexts: ['grid']},
	{command: 'scroll.up', keys: ['up', 'k'], label: 'up', description: 'Scroll up one line', contexts: ['zoom', 'help', 'spend'], group: 'scroll'},
	{command: 'scroll.down', keys: ['down', 'j'], label: 'down', description: 'Scroll down one line', contexts: ['zoom', 'help', 'spend'], group: 'scroll'},
	{command: 'scroll.pageUp', keys: ['pageup'], label: 'page up', description: 'Scroll up one page', contexts: ['zoom', 'help', 'spend'], group: 'page'},
	{command: 'scroll.pageDown', keys: ['pagedown'], label: 'page down', description: 'Scroll down one page', contexts: ['zoom', 'help', 'spend'], group: 'page'},
	{command: 'scroll.left', keys: ['left', 'h'], label: 'left', description: 'With long lines cut (w), scroll sideways to the left', contexts: ['zoom'], group: 'sideways', footer: false},
	{command: 'scroll.right', keys: ['right', 'l'], label: 'right', description: 'With long lines cut (w), scroll sideways to the right', contexts: ['zoom'], group: 'sideways', footer: false},
	{command: 'zoom.wrap', keys: ['w'], label: 'cut lines', description: 'Wrap long lines onto as many rows as they need (the default), or cut them at the edge and scroll sideways with ←/→', contexts: ['zoom']},
	{command: 'scroll.top', keys: ['g', 'home'], label: 'top', description: 'Jump to the start of the output', contexts: ['zoom'], footer: false},
	{command: 'scroll.bottom', keys: ['G', 'end'], label: 'bottom', description: 'Jump to the end of the output and follow it', contexts: ['zoom'], footer: false},
	{command: 'search.start', keys: ['/'], label: 'search', description: 'Search the task output', contexts: ['zoom']},
	{command: 'search.next', keys: ['n'], label: 'next', description: 'Jump to the next match below, towards the end (as n after / in less and vim)', contexts: ['zoom'], group: 'match'},
	{command: 'search.prev', keys: ['N'], label: 'previous', description: 'Jump to the previous match above, towards the start', contexts: ['zoom'], group: 'match'},
	{command: 'search.submit', keys: ['enter'], label: 'find', description: 'Search for what was typed and jump to the nearest match above the bottom of the view', contexts: ['search']},
	{command: 'search.cancel', keys: ['escape'], label: 'cancel', description: 'Stop searching and clear the query', contexts: ['search']},
	{command: 'zoom.close', keys: ['escape'], label: 'back', description: 'Close the zoomed task, this help or the spend table', contexts: ['zoom', 'help', 'spend'], pinned: true},
	{command: 'task.cancel', keys: ['c'], label: 'cancel', description: 'Cancel the focused task (asks first): stop signal, then a forced kill after the grace period', contexts: ['grid', 'zoom']},
	{command: 'task.kill', keys: ['K'], label: 'kill', description: 'Kill the focused task now, skipping the grace period (asks first)', contexts: ['grid', 'zoom']},
	{command: 'task.reroute', keys: ['R'], label: 're-route', description: 'Send the focused task to another route of the active mode, or to an explicit model and provider: a queued one changes route; one that ended, succeeded too, runs again as a new attempt (the earlier one\'s log and result are kept); also after the batch has finished', contexts: ['grid', 'zoom']},
	{command: 'confirm.yes', keys: ['y'], label: 'yes', description: 'Confirm', contexts: ['confirm']},
	{command: 'confirm.no', keys: ['n', 'escape'], label: 'no', description: 'Back out', contexts: ['confirm']},
	{command: 'routes.up', keys: ['up', 'k'], label: 'up', description: 'Select the route above', contexts: ['routes', 'route-pick'], group: 'select'},
	{command: 'routes.down', keys: ['down', 'j'], label: 'down', description: 'Select the route below', contexts: ['routes', 'route-pick'], group: 'select'},
	{command: 'routes.edit', keys: ['e', 'enter'], label: 'edit', description: 'Edit the selected route\'s description (Enter saves, Esc cancels)', contexts: ['routes']},
	{command: 'routes.model', keys: ['M'], label: 'model', description: 'Edit the selected model route\'s model', contexts: ['routes']},
	{command: 'routes.provider', keys: ['P'], label: 'provider', description: 'Edit the selected model route\'s provider (emptied, it is removed: the route then needs a base_url)', contexts: ['routes']},
	{command: 'routes.effort', keys: ['E'], label: 'effort', description: 'Edit the selected model route\'s reasoning_effort: none, minimal, low, medium, high, xhigh, max or ultra (emptied, it is removed and Hermes\'s own setting applies)', contexts: ['routes']},
	{command: 'routes.add', keys: ['a'], label: 'add', description: 'Add a route to the active mode: a model route asks its name, description, model and provider; a profile route picks one of the profiles not routed yet, then asks its description', contexts: ['routes']},
	{command: 'routes.remove', keys: ['x'], label: 'remove', description: 'Remove the selected route from config.yaml (asks first; not the default route)', contexts: ['routes']},
	{command: 'routes.reload', keys: ['r'], label: 'reload', description: 'Re-read config.yaml from disk (after a save was stopped by someone else\'s change) and clear the header\'s ⚠ mark', contexts: ['routes'], footer: false},
	{command: 'routes.default', keys: ['d'], label: 'default', description: 'Make the selected route its mode\'s default', contexts: ['routes']},
	{command: 'routes.close', keys: ['escape'], label: 'close', description: 'Close the routes editor or the route picker', contexts: ['routes', 'route-pick']},
	{command: 'pick.submit', keys: ['enter'], label: 're-route', description: 'Put the task back in the queue on the selected route ("explicit model…" asks a model name and its provider instead); when adding a profile route, take the selected profile', contexts: ['route-pick']},
	{command: 'field.submit', keys: ['enter'], label: 'save', description: 'Save the field into config.yaml and re-plan the queue (an empty provider or reasoning_effort is removed from the route); in the re-route picker: the model, then its provider (empty: Hermes\'s own), then the task goes back in the queue; a value that cannot be used is refused in place, with the reason', contexts: ['route-edit']},
	{command: 'field.cancel', keys: ['escape'], label: 'cancel', description: 'Stop editing; nothing is saved (the picker\'s provider field goes back to the model)', contexts: ['route-edit']},
	{command: 'layout.toggle', keys: ['L'], label: 'layout', description: 'Switch between the grid and the list layout', contexts: ['grid']},
	{command: 'routing.mode', keys: ['m'], label: 'mode', description: 'Switch the routing mode (model_map → profile_routes → built-in), saved into Hermes\'s config.yaml (asks first, saying how many queued tasks re-plan); tasks not started yet are re-planned', contexts: ['grid']},
	{command: 'routes.open', keys: ['r'], label: 'routes', description: 'Open the routes editor for the active mode: edit a route\'s description, model, provider or reasoning effort, or the default, saved into config.yaml', contexts: ['grid']},
	{command: 'spend.toggle', keys: ['$'], label: 'spend', description: 'Show or hide the spend table: tokens in, out, cache and reasoning, API and tool calls and cost from Hermes\'s state.db, per route, per model and for the batch, every attempt counted (? unknown, never 0; unpriced where Hermes has no price)', contexts: ['grid', 'zoom', 'spend']},
	{command: 'help.toggle', keys: ['?'], label: 'help', description: 'Show or hide this help', contexts: ['grid', 'zoom', 'help'], pinned: true},
	{command: 'screen.redraw', keys: ['ctrl+l'], label: 'redraw', description: 'Redraw the whole screen, as in less and vim: what another program wrote over the dashboard (a wall message) goes', contexts: everywhere, footer: false},
	{command: 'app.quit', keys: ['q', 'ctrl+c'], label: 'quit', description: 'Quit; while tasks run or wait it asks first (y stops them all, n stays); with nothing left running it quits at once; again at the question: yes; again while quitting: kill all now', contexts: everywhere, pinned: true},
	{command: 'app.detach', keys: ['d'], label: 'detach', description: 'Leave the dashboard and let the batch run on in its runner host (also at the quit question); come back with hermes-delegate attach RUN', contexts: ['grid', 'zoom', 'confirm']},
	{command: 'task.copy', keys: ['y'], label: 'copy', description: 'Copy the focused task\'s answer to the clipboard (OSC 52, where the terminal allows it; the notice says where else the text is)', contexts: ['grid', 'zoom']},
	{command: 'task.pager', keys: ['o'], label: 'open log', description: 'Open the focused task\'s whole log, sanitised (no escape sequences), in $PAGER (else less); the dashboard comes back when the pager ends', contexts: ['grid', 'zoom']},
	{command: 'filter.start', keys: ['/'], label: 'filter', description: 'Filter the grid and the list by what is typed: a task\'s id, name, goal, route, model, provider, profile or worker host (any case); Enter keeps it, Esc clears it', contexts: ['grid']},
	{command: 'filter.submit', keys: ['enter'], label: 'keep', description: 'Keep the filter typed and go back to the grid', contexts: ['filter']},
	{command: 'filter.cancel', keys: ['escape'], label: 'clear', description: 'Clear the filter being typed', contexts: ['filter']},
	{command: 'filter.clear', keys: ['escape'], label: 'clear filter', description: 'Clear the text filter (/)', contexts: ['grid']},
	{command: 'view.sort', keys: ['s'], label: 'sort', description: 'Sort the grid and the list: plan order, status (running, then failed, then queued, then done), elapsed (longest running first) or spend (most first)', contexts: ['grid']},
	{command: 'view.filter', keys: ['f'], label: 'status', description: 'Show only some tasks: all, active (running or queued), failed (failed, timed out, lost, cancelled or refused) or finished; the header still counts them all', contexts: ['grid']},
];

// Where text keys act only for the context's own commands. Typing into the search field must
// reach the field; a confirm prompt is answered with its own keys, so that a stray q or c cannot
// replace the question with another one (ctrl+c still quits).
const textKeysOwnedBy: Partial<Record<KeyContext, ReadonlySet<Command>>> = {
	search: new Set(),
	'route-edit': new Set(),
	filter: new Set(),
	confirm: new Set(['confirm.yes', 'confirm.no', 'app.detach']),
};

const contextNames: Readonly<Record<KeyContext, string>> = {
	grid: 'the grid', zoom: 'the zoom view', confirm: 'a confirm prompt', help: 'the help overlay', spend: 'the spend table', search: 'the search field',
	routes: 'the routes editor', 'route-edit': 'a route\'s text field', 'route-pick': 'the route picker', filter: 'the filter prompt',
};

/** Contexts where keys that are not commands are typing. */
export function isTextContext(context: KeyContext): boolean {
	return context === 'search' || context === 'route-edit' || context === 'filter';
}

export const commands: readonly Command[] = table.map(entry => entry.command);

export type Bindings = ReadonlyMap<Command, readonly string[]>;

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

		// Ctrl+C always quits: with the terminal in raw mode it is the operator's only way out
		// that does not depend on remembering a remapped key.
		if (name === 'app.quit' && !resolved.includes('ctrl+c')) {
			resolved.push('ctrl+c');
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

/** The keys of a command that can act in a context (see textKeysOwnedBy). */
function activeKeys(bindings: Bindings, command: Command, context: KeyContext | undefined): string[] {
	const keys = bindings.get(command) ?? [];
	const owned = context ? textKeysOwnedBy[context] : undefined;
	return owned && !owned.has(command) ? keys.filter(descriptor => !isTextKey(specOf(descriptor))) : [...keys];
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

export type KeyHint = {keys: string; label: string; pinned?: boolean | undefined};

export type FooterOptions = {
	/** false for commands that would do nothing now. */
	available?: (command: Command) => boolean;
	/** A label that says what the command does in the current state, instead of the table's. */
	label?: (command: Command) => string | undefined;
};

type FooterEntry = {entry: Entry; shown: string; arrows: boolean};

/** What the footer shows of each entry that has a key in a context: fixed per binding table and context. */
const footerEntries = new WeakMap<Bindings, Map<KeyContext, FooterEntry[]>>();

function footerEntriesIn(bindings: Bindings, context: KeyContext): FooterEntry[] {
	let byContext = footerEntries.get(bindings);
	if (!byContext) {
		byContext = new Map();
		footerEntries.set(bindings, byContext);
	}

	let entries = byContext.get(context);
	if (!entries) {
		entries = entriesIn(context).flatMap(entry => {
			const first = activeKeys(bindings, entry.command, context)[0];
			if (entry.footer === false || first === undefined) {
				return [];
			}

			const shown = formatKey(first);
			return [{entry, shown, arrows: Object.values(arrowGlyphs).includes(shown)}];
		});
		byContext.set(context, entries);
	}

	return entries;
}

/**
 * The footer: one hint per command (or group) usable right now, showing its first key. The
 * footer asks on every store update (a dozen a second under output), so the part that depends
 * only on the bindings and the context is worked out once.
 */
export function footerHints(bindings: Bindings, context: KeyContext, options: FooterOptions = {}): KeyHint[] {
	const hints: Array<KeyHint & {group?: string | undefined; arrows: boolean}> = [];
	for (const {entry, shown, arrows} of footerEntriesIn(bindings, context)) {
		if (options.available?.(entry.command) === false) {
			continue;
		}

		const previous = hints.at(-1);
		if (entry.group && previous?.group === entry.group) {
			previous.keys += previous.arrows && arrows ? shown : `/${shown}`;
			previous.arrows &&= arrows;
		} else {
			const label = options.label?.(entry.command) ?? entry.group ?? entry.label;
			hints.push({keys: shown, label, group: entry.group, arrows, pinned: entry.pinned});
		}
	}

	return hints.map(({keys, label, pinned}) => (pinned ? {keys, label, pinned} : {keys, label}));
}
