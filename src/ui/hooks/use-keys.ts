// The app's one keyboard handler: find where the keyboard is, look the key up in the binding
// table, hand the command to the store. While the search field is being edited, keys that are
// not commands there are typing.
import {useInput, useStdin, type Key} from 'ink';
import {keyContext, runCommand, type CommandEnvironment} from '../commands.js';
import {matchCommand, type Bindings} from '../keys.js';
import {useBatchStore} from '../store-context.js';

// Control characters (and DEL) are never text; a paste may carry line breaks and tabs.
const nonText = /[\u0000-\u001F\u007F-\u009F]/g;

export function useKeys(bindings: Bindings, environment: CommandEnvironment): void {
	const store = useBatchStore();
	// Without raw mode (stdin not a terminal) Ink cannot read keys and would throw.
	const {isRawModeSupported} = useStdin();
	useInput((input, key) => {
		const state = store.getState();
		const context = keyContext(state);
		const command = matchCommand(bindings, context, input, key);
		if (command) {
			runCommand(command, state, environment);
		} else if (context === 'search') {
			editQuery(state.zoom?.search.query ?? '', input, key, state.editSearch);
		}
	}, {isActive: isRawModeSupported});
}

function editQuery(query: string, input: string, key: Key, edit: (query: string) => void): void {
	// Terminals send DEL for the backspace key, which Ink reports as delete.
	if (key.backspace || key.delete) {
		edit([...query].slice(0, -1).join(''));
		return;
	}

	if (key.ctrl || key.meta) {
		return;
	}

	const text = input.replace(nonText, '');
	if (text !== '') {
		edit(query + text);
	}
}
