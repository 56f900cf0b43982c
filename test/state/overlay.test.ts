// The dashboard's one overlay: what lies under what (the help over the zoom it returns to, the
// picker over the zoom it was opened on, a question over any body, which stays), which text
// field has the keyboard, and that output still reaches a zoom something covers.
import {describe, expect, it} from 'vitest';
import {parseHermesConfig} from '../../src/core/config/parse.js';
import {activeField, bodyLayer, zoomOf} from '../../src/state/overlay.js';
import {createBatchStore} from '../../src/state/store.js';
import {fieldAtEnd} from '../../src/state/text-field.js';
import {keyContext} from '../../src/ui/keys/actions.js';
import {FakeControl, plannedTasks, t0} from '../helpers/render.js';
import {steeringConfig} from '../helpers/steering-config.js';

function dashboard() {
	const {delegation} = parseHermesConfig(steeringConfig, {file: 'config.yaml', profileExists: () => true});
	const control = new FakeControl().steering({
		routing: () => delegation,
		steer: () => ({ok: false as const, message: 'not in this test', conflict: false}),
		reroute: (id: string) => ({ok: true, message: `${id} re-routed`}),
	});
	const store = createBatchStore({control, plan: {mode: 'model_map', tasks: plannedTasks(2), warnings: []}, runId: 'run-1', runDir: '/tmp/run-1', concurrency: 1, graceMs: 1000, now: t0});
	control.feeds(store);
	return {store, control, state: () => store.getState()};
}

describe('one overlay', () => {
	it('the help opens over the zoom and Esc returns to the same zoom, scrolled where it was', async () => {
		const {control, state} = dashboard();
		control.write('t01', Array.from({length: 50}, (_, index) => `line ${index}`));
		state().openZoom(10);
		await control.landed();
		state().scroll(-5, 10);
		const zoom = state().overlay;
		state().toggleHelp();
		expect(keyContext(state())).toBe('help');
		expect(state().overlay).toEqual({kind: 'help', under: zoom});
		state().closeOverlay();
		expect(state().overlay).toBe(zoom);
		expect(keyContext(state())).toBe('zoom');
		expect(zoomOf(state().overlay)?.offsetFromBottom).toBe(5);
	});

	it('output that arrives while the help covers the zoom reaches the zoom under it', async () => {
		const {control, state} = dashboard();
		control.write('t01', ['first']);
		control.publish();
		state().openZoom(10);
		await control.landed();
		state().toggleHelp();
		control.write('t01', ['second']);
		control.publish();
		await control.landed();
		expect(state().overlay?.kind).toBe('help');
		expect(zoomOf(state().overlay)?.scrollback).toEqual(['first', 'second']);
	});

	it('a question asked over the routes editor leaves the editor as the body; n goes back to it as it was', () => {
		const {state} = dashboard();
		state().openRoutes();
		state().moveRoute(1);
		const editor = state().overlay;
		state().requestRemoveRoute();
		expect(keyContext(state())).toBe('confirm');
		expect(state().overlay).toEqual({kind: 'confirm', question: {action: 'remove-route', routeName: 'deep'}, under: editor});
		expect(bodyLayer(state().overlay)).toBe(editor);
		state().confirmNo();
		expect(state().overlay).toBe(editor);
		expect(keyContext(state())).toBe('routes');
	});

	it('R in the zoom opens the picker over it: Esc goes back to the zoom, Esc again to the grid', () => {
		const {state} = dashboard();
		state().focus('t02');
		state().openZoom(10);
		const zoom = state().overlay;
		state().openReroute();
		expect(keyContext(state())).toBe('route-pick');
		expect(state().overlay).toMatchObject({kind: 'pick', picker: {taskId: 't02'}, under: zoom});
		state().closeOverlay();
		expect(state().overlay).toBe(zoom);
		state().closeOverlay();
		expect(state().overlay).toBeNull();
		expect(keyContext(state())).toBe('grid');
	});

	it('a re-route picked in the picker opened from the zoom returns to that zoom', async () => {
		const {state, control} = dashboard();
		state().openZoom(10);
		await control.landed();
		const zoom = state().overlay;
		state().openReroute();
		state().pickRoute();
		await control.landed();
		expect(state().overlay).toBe(zoom);
		expect(state().notice).toBe('t01 re-routed');
	});

	it('one text field has the keyboard at a time, and setField edits that one', () => {
		const {state} = dashboard();
		state().openZoom(10);
		expect(activeField(state().overlay)).toBeNull();
		state().startSearch();
		state().setField(fieldAtEnd('needle'));
		expect(keyContext(state())).toBe('search');
		expect(activeField(state().overlay)).toEqual(fieldAtEnd('needle'));
		state().closeOverlay(); // the search prompt
		state().closeOverlay(); // the zoom

		state().openRoutes();
		state().editRouteField('model');
		expect(keyContext(state())).toBe('route-edit');
		expect(activeField(state().overlay)).toEqual(fieldAtEnd('google/gemini-3-flash-preview'));
		state().setField(fieldAtEnd('other'));
		expect(state().overlay).toMatchObject({kind: 'routes', editor: {input: {kind: 'field', name: 'model', field: {value: 'other'}}}});
		// While a field is open, the editor's other keys do nothing: one input at a time.
		state().startAddRoute();
		state().setDefaultRoute();
		expect(state().overlay).toMatchObject({kind: 'routes', editor: {input: {kind: 'field', name: 'model'}}});
	});
});
