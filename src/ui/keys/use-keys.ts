// The app's one keyboard handler: find where the keyboard is, look the key up in the binding
// table, hand the command to the store. Where a text field has the keyboard, keys that are not
// commands there are typing. A paste is text, never keys (see paste-reader.ts); a mouse report
// is never keys either (ui/mouse/sgr.ts), whether or not the mouse is on.
import {useRef} from 'react';
import {useInput, useStdin, type Key} from 'ink';
import {keyContext, runKeyCommand, type CommandEnvironment} from './actions.js';
import {isTextContext, matchCommand, type Bindings} from './keys.js';
import {nonText} from '../../state/text-field.js';
import {typeIntoField} from '../text-field/edit.js';
import {useBatchStore} from '../store-context.js';
import type {BatchStore} from '../../state/store-types.js';
import {PasteReader} from './paste-reader.js';
import {runMouse, type ClickMemory, type MouseEnvironment} from '../mouse/actions.js';
import {MouseReader} from '../mouse/sgr.js';

// What may arrive together as separate key presses: text, and the keys that are one byte (Enter, Tab).
const splittable = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]+$/;

/** `mouse`: where things are on screen, when the mouse is on; without it mouse reports are dropped. */
export function useKeys(bindings: Bindings, environment: CommandEnvironment, mouse?: MouseEnvironment): void {
	const store = useBatchStore();
	const mouseReader = useRef(new MouseReader());
	const clicks = useRef<ClickMemory>({last: undefined});
	// Without raw mode (stdin not a terminal) Ink cannot read keys and would throw.
	const {isRawModeSupported} = useStdin();
	const paste = useRef<PasteReader | null>(null);
	paste.current ??= new PasteReader(text => {
		store.getState().paste(text);
	});
	useInput((input, key) => {
		const read = mouseReader.current.take(input);
		if (read === 'ignored') return;
		if (read !== undefined && !('key' in read)) {
			if (mouse) runMouse(read, store.getState(), mouse, clicks.current, Date.now());
			return;
		}

		const keys = read?.key ?? input;
		if (!paste.current?.take(keys, key)) {
			handle(store, bindings, environment, keys, key);
		}
	}, {isActive: isRawModeSupported});
}

// One-byte keys other than Tab, line feed and Enter: Ctrl+letters (0x01-0x1A, Backspace's 0x08
// among them) and DEL, which is what the Backspace key sends.
const oneByteKey = /[\u0001-\u0008\u000B\u000C\u000E-\u001A\u007F]/;

function handle(store: BatchStore, bindings: Bindings, environment: CommandEnvironment, input: string, key: Key): void {
	const characters = [...input];
	// Ctrl+W or Backspace with text, read at once (typing fast, holding Backspace, tmux send-keys,
	// a loaded machine): Ink takes the whole string for text and the key is lost. Each such key
	// is its own press, in order, between the text.
	if (characters.length > 1 && !input.includes('\u001B') && oneByteKey.test(input)) {
		let text = '';
		for (const character of characters) {
			if (!oneByteKey.test(character)) {
				text += character;
				continue;
			}

			if (text !== '') {
				handle(store, bindings, environment, text, {...key, ctrl: false});
				text = '';
			}

			press(store, bindings, environment, ...oneByteKeyPress(key, character));
		}

		if (text !== '') {
			handle(store, bindings, environment, text, {...key, ctrl: false});
		}

		return;
	}

	if (characters.length > 1 && !key.ctrl && !key.meta && splittable.test(input)) {
		// Keys typed faster than they are read (key repeat under load, `c` then `y`, tmux send-keys)
		// arrive as one string, which no binding matches. Outside the search field each is its own
		// key press, in order: the first may change where the keyboard is (`/` opens the search
		// field) for the next.
		if (!isTextContext(keyContext(store.getState()))) {
			for (const character of characters) {
				const [characterInput, characterKey] = pressOf(key, character);
				press(store, bindings, environment, characterInput, characterKey);
			}

			return;
		}

		// In a text field a string is text (typed fast) up to a line break, which is Enter. Text
		// after the line break is a paste from a terminal that does not mark pastes: all of it is
		// a paste, so that no pasted line runs as keys where Enter has taken the keyboard.
		const lineBreak = input.search(/[\r\n]/);
		if (lineBreak !== -1 && /[^\r\n]/.test(input.slice(lineBreak))) {
			store.getState().paste(input);
			return;
		}

		if (lineBreak !== -1) {
			if (lineBreak > 0) {
				press(store, bindings, environment, input.slice(0, lineBreak), {...key, return: false});
			}

			const [enterInput, enterKey] = pressOf(key, '\r');
			press(store, bindings, environment, enterInput, enterKey);
			// CR LF is one Enter.
			const rest = input.slice(lineBreak + (input.startsWith('\r\n', lineBreak) ? 2 : 1));
			if (rest !== '') {
				handle(store, bindings, environment, rest, {...key, return: false});
			}

			return;
		}
	}

	press(store, bindings, environment, input, key);
}

function press(store: BatchStore, bindings: Bindings, environment: CommandEnvironment, input: string, key: Key): void {
	const state = store.getState();
	const context = keyContext(state);
	const command = matchCommand(bindings, context, input, key);
	// The help and the spend table scroll their own window; the zoom view under them stays put.
	if ((context === 'help' || context === 'spend') && command?.startsWith('scroll.')) {
		environment.scrollOverlay(command);
		return;
	}

	if (command) {
		runKeyCommand(command, state, environment);
	} else if (isEscapeThenKey(input, key)) {
		// Esc and a key pressed right after it reach us as one sequence, which terminals also use
		// for Alt+key: with no binding for that Alt+key, the operator meant Esc, then the key.
		press(store, bindings, environment, '', {...key, escape: true, meta: true});
		press(store, bindings, environment, input, {...key, meta: false, shift: /^[A-Z]$/.test(input)});
	} else if (isTextContext(context)) {
		// One text field has the keyboard (the search prompt's, the editor's or the picker's): the
		// key edits it, the same way in each.
		typeIntoField(state, input, key);
	}
}

function isEscapeThenKey(input: string, key: Key): boolean {
	return key.meta && !key.escape && !key.ctrl && [...input].length === 1 && input.replace(nonText, '') === input;
}

/** What Ink reports for this one-byte key read alone: Backspace (0x08), Delete (DEL, 0x7F), or Ctrl+letter. */
function oneByteKeyPress(key: Key, character: string): [string, Key] {
	if (character === '\b' || character === '\u007F') {
		return ['', {...key, ctrl: false, backspace: character === '\b', delete: character === '\u007F'}];
	}

	return [String.fromCodePoint(character.codePointAt(0)! + 96), {...key, ctrl: true}];
}

/** What Ink reports for this character read alone: Enter and Tab by name, shift for capitals. */
function pressOf(key: Key, character: string): [string, Key] {
	const enter = character === '\r' || character === '\n';
	const tab = character === '\t';
	return [enter || tab ? '' : character, {...key, return: enter, tab, shift: /^[A-Z]$/.test(character)}];
}
