// What the tests read of the dashboard's one overlay (src/state/overlay.ts): the routes editor,
// the route picker, the question, the zoom — or null when that is not what is open.
import {bodyLayer, zoomOf} from '../../src/state/overlay.js';
import type {RoutePickerState, RoutesEditorState} from '../../src/state/routes-editor.js';
import type {BatchState} from '../../src/state/store-types.js';
import type {ConfirmQuestion} from '../../src/state/overlay.js';

export {zoomOf};

export function editorOf(state: Pick<BatchState, 'overlay'>): RoutesEditorState | null {
	const body = bodyLayer(state.overlay);
	return body?.kind === 'routes' ? body.editor : null;
}

export function pickerOf(state: Pick<BatchState, 'overlay'>): RoutePickerState | null {
	const body = bodyLayer(state.overlay);
	return body?.kind === 'pick' ? body.picker : null;
}

export function questionOf(state: Pick<BatchState, 'overlay'>): ConfirmQuestion | null {
	return state.overlay?.kind === 'confirm' ? state.overlay.question : null;
}
