// A paste is text, never keys. With bracketed paste on (the dashboard turns it on), the text
// between ESC[200~ and ESC[201~ goes into the open text field as one line, or is refused whole
// when it holds several; where no field is open it is ignored with a notice. A terminal that
// does not mark pastes still cannot run a pasted line as keys from inside a field. The editor
// saves into a real config.yaml through the real BatchSteering, so "nothing saved" is read from
// the file.
import {readFileSync} from 'node:fs';
import {cleanup, render as inkRender} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {loadTheme} from '../../src/core/theme/themes.js';
import {App} from '../../src/ui/App.js';
import {defaultBindings} from '../../src/ui/keys/keys.js';
import {stripAnsi} from '../helpers/render.js';
import {removeSteeredHomes, steeredStore} from '../helpers/steered-store.js';
import {steeringConfig} from '../helpers/steering-config.js';
import {editorOf, questionOf} from '../helpers/overlay.js';

afterEach(() => {
	cleanup();
	removeSteeredHomes();
});

const keys = {down: '\u001B[B', enter: '\r', ctrlU: '\u0015', backspace: '\u007F', ctrlH: '\b'};
const pasteStart = '\u001B[200~';
const pasteEnd = '\u001B[201~';
const bracketed = (text: string) => `${pasteStart}${text}${pasteEnd}`;
// An operator's paste: two lines, the second of which would remove the route and confirm.
const twoLines = 'Web research with sources\rxy';

function editor() {
	const {configPath, store} = steeredStore('paste-');
	const instance = inkRender(<App store={store} theme={loadTheme('dark', {noColor: false})} bindings={defaultBindings} columns={110} rows={30}/>);
	const frame = () => stripAnsi(instance.lastFrame() ?? '');
	const until = async (pattern: RegExp) => vi.waitFor(() => {
		expect(frame()).toMatch(pattern);
	});
	const config = () => readFileSync(configPath, 'utf8');
	/** r, the second route (deep, not the default), e: its description's field open. */
	const editDeep = async () => {
		instance.stdin.write('r');
		await until(/▸ fast/);
		instance.stdin.write(keys.down);
		await until(/▸ deep/);
		instance.stdin.write('e');
		await until(/Enter saves · Esc cancels/);
	};

	const field = () => {
		const input = editorOf(store.getState())?.input;
		return input?.kind === 'field' ? input.field.value : null;
	};

	return {...instance, store, frame, until, config, editDeep, field};
}

describe('pasting into the dashboard', () => {
	test('a two-line paste into a field is refused whole: nothing saved, no route removed, no key run', async () => {
		const view = editor();
		await view.editDeep();
		view.stdin.write(bracketed(twoLines));
		await view.until(/paste not used: it holds 2 lines/);
		expect(view.config()).toBe(steeringConfig);
		expect(questionOf(view.store.getState())).toBeNull();
		expect(view.field()).toBe('Slow and careful: hard debugging and design work.');
	});

	test('a paste split across reads is judged whole, and line breaks read alone do not act as Enter', async () => {
		const view = editor();
		await view.editDeep();
		for (const read of [pasteStart, 'Web research', ' with sources', '\r', 'xy', pasteEnd]) {
			view.stdin.write(read);
		}

		await view.until(/paste not used: it holds 2 lines/);
		expect(view.config()).toBe(steeringConfig);
		expect(questionOf(view.store.getState())).toBeNull();
	});

	test('a one-line paste (its trailing line break dropped) goes in at the cursor; only Enter saves it', async () => {
		const view = editor();
		await view.editDeep();
		view.stdin.write(keys.ctrlU);
		await vi.waitFor(() => {
			expect(view.field()).toBe('');
		});
		view.stdin.write(bracketed('Web research\twith sources\r'));
		await vi.waitFor(() => {
			expect(view.field()).toBe('Web research with sources');
		});
		expect(view.config()).toBe(steeringConfig);
		view.stdin.write(keys.enter);
		await vi.waitFor(() => {
			expect(view.config()).toContain('description: "Web research with sources"');
		});
	});

	test('a paste where no field is open is ignored with a notice: x, y and d in it are no keys', async () => {
		const view = editor();
		view.stdin.write('r');
		await view.until(/▸ fast/);
		view.stdin.write(keys.down);
		await view.until(/▸ deep/);
		view.stdin.write(bracketed('xy\rdq'));
		await view.until(/paste ignored: no text field is open here/);
		expect(questionOf(view.store.getState())).toBeNull();
		expect(view.frame()).toMatch(/▸ deep/);
		expect(view.store.getState().exitRequested).toBe(false);
		expect(view.config()).toBe(steeringConfig);
	});

	test('without paste marks (a terminal that has none), a read with text after a line break in a field is a paste', async () => {
		const view = editor();
		await view.editDeep();
		view.stdin.write(twoLines);
		await view.until(/paste not used: it holds 2 lines/);
		expect(view.config()).toBe(steeringConfig);
		expect(questionOf(view.store.getState())).toBeNull();
	});
});

describe('Backspace in one read with other keys', () => {
	test('text then Backspace, Backspace held, and Ctrl+H each delete', async () => {
		const view = editor();
		await view.editDeep();
		view.stdin.write(keys.ctrlU);
		await vi.waitFor(() => {
			expect(view.field()).toBe('');
		});
		view.stdin.write(`abc${keys.backspace}`);
		await vi.waitFor(() => {
			expect(view.field()).toBe('ab');
		});
		view.stdin.write(`cdef${keys.backspace}${keys.backspace}${keys.backspace}`);
		await vi.waitFor(() => {
			expect(view.field()).toBe('abc');
		});
		view.stdin.write(`x${keys.ctrlH}y`);
		await vi.waitFor(() => {
			expect(view.field()).toBe('abcy');
		});
	});
});
