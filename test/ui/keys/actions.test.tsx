// Which context a key is read in.
import {describe, expect, test} from 'vitest';
import {createBatchStore} from '../../../src/state/store.js';
import {keyContext} from '../../../src/ui/keys/actions.js';
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
