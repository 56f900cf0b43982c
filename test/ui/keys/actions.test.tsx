// Which context a key is read in, and what the footer keeps when it runs out of room.
import {describe, expect, test} from 'vitest';
import {createBatchStore} from '../../../src/state/store.js';
import {keyContext} from '../../../src/ui/keys/actions.js';
import {fitHints} from '../../../src/ui/components/Footer.js';
import {FakeControl, plannedTasks, t0} from '../../helpers/render.js';
import {bodyLayer} from '../../../src/state/overlay.js';

function store() {
	return createBatchStore({control: new FakeControl(), plan: {mode: 'model_map', tasks: plannedTasks(2), warnings: []}, runId: 'r', runDir: '/tmp/r', concurrency: 2, graceMs: 5000, now: t0});
}

describe('keyContext', () => {
	test('the innermost overlay wins: confirm > help > search > zoom > grid', () => {
		const batch = store();
		const state = () => batch.getState();
		expect(keyContext(state())).toBe('grid');
		state().openZoom(10);
		expect(keyContext(state())).toBe('zoom');
		state().startSearch();
		expect(keyContext(state())).toBe('search');
		state().toggleHelp();
		expect(keyContext(state())).toBe('help');
		batch.setState({overlay: {kind: 'confirm', question: {action: 'quit'}, under: bodyLayer(state().overlay)}});
		expect(keyContext(state())).toBe('confirm');
	});
});

describe('fitHints', () => {
	const hints = [
		{keys: '↑↓←→', label: 'move'},
		{keys: 'Enter', label: 'zoom'},
		{keys: 'c', label: 'cancel'},
		{keys: 'K', label: 'kill'},
		{keys: '?', label: 'help', pinned: true},
		{keys: 'q', label: 'quit', pinned: true},
	];

	test('keeps everything that fits', () => {
		expect(fitHints(hints, 80)).toEqual(hints);
	});

	test('drops the last unpinned hint first, so help and quit always stay', () => {
		// "↑↓←→ move  Enter zoom  ? help  q quit" is 37 columns.
		expect(fitHints(hints, 37).map(hint => hint.label)).toEqual(['move', 'zoom', 'help', 'quit']);
		expect(fitHints(hints, 36).map(hint => hint.label)).toEqual(['move', 'help', 'quit']);
		expect(fitHints(hints, 5).map(hint => hint.label)).toEqual(['help', 'quit']);
	});
});
