// Someone edits config.yaml by hand while the routes editor is open: the editor's rows follow
// the file (as the queue's plan does), and a field opened before the edit does not overwrite the
// hand edit unasked. Real config.yaml, real BatchSteering and its watcher, wired to the store as
// commands/tui.tsx wires them.
import {readFileSync, writeFileSync} from 'node:fs';
import {cleanup, render as inkRender} from 'ink-testing-library';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {loadTheme} from '../../src/core/theme/themes.js';
import {App} from '../../src/ui/App.js';
import {defaultBindings} from '../../src/ui/keys/keys.js';
import {stripAnsi} from '../helpers/render.js';
import {removeSteeredHomes, steeredStore} from '../helpers/steered-store.js';
import {steeringConfig} from '../helpers/steering-config.js';
import {editorOf} from '../helpers/overlay.js';

const stops: Array<() => void> = [];
afterEach(() => {
	cleanup();
	for (const stop of stops.splice(0)) stop();
	removeSteeredHomes();
});

const oldDeep = 'Slow and careful: hard debugging and design work.';
const handDeep = 'Edited by hand: architecture reviews only.';

function watchedEditor() {
	const {configPath, steering, store} = steeredStore('outside-edit-');
	stops.push(steering.watch(outcome => store.getState().configChanged(outcome), 20));
	const instance = inkRender(<App store={store} theme={loadTheme('dark', {noColor: false})} bindings={defaultBindings} columns={110} rows={30}/>);
	const frame = () => stripAnsi(instance.lastFrame() ?? '');
	const until = async (pattern: RegExp) => vi.waitFor(() => {
		expect(frame()).toMatch(pattern);
	}, {timeout: 10_000});
	const config = () => readFileSync(configPath, 'utf8');
	const editByHand = () => {
		writeFileSync(configPath, steeringConfig.replace(oldDeep, handDeep));
	};

	return {...instance, store, frame, until, config, editByHand};
}

describe('the routes editor after an outside edit of config.yaml', () => {
	test('shows the routes as the file now says, the selection kept', async () => {
		const view = watchedEditor();
		view.stdin.write('r');
		await view.until(/▸ fast/);
		view.stdin.write('\u001B[B');
		await view.until(/▸ deep/);
		expect(view.frame()).toContain(oldDeep);
		view.editByHand();
		await view.until(/changed on disk/);
		await view.until(/Edited by hand: architecture reviews only\./);
		expect(view.frame()).not.toContain(oldDeep);
		expect(view.frame()).toMatch(/▸ deep/);
	});

	test('a field opened before the edit asks before saving over it; Enter again saves yours over the hand edit', async () => {
		const view = watchedEditor();
		view.stdin.write('r');
		await view.until(/▸ fast/);
		view.stdin.write('\u001B[B');
		await view.until(/▸ deep/);
		view.stdin.write('e');
		await view.until(/Enter saves · Esc cancels/);
		view.stdin.write(' Mine.');
		view.editByHand();
		await view.until(/changed on disk/);
		view.stdin.write('\r');
		await view.until(/config\.yaml changed on disk while you typed: description of "deep" is now/);
		expect(view.config()).toContain(handDeep);
		const input = editorOf(view.store.getState())?.input;
		expect(input?.kind === 'field' ? input.field.value : null).toBe(`${oldDeep} Mine.`);
		view.stdin.write('\r');
		await vi.waitFor(() => {
			expect(view.config()).toContain(`description: "${oldDeep} Mine."`);
		});
		expect(view.config()).not.toContain(handDeep);
	});
});
