// The zoom's scrollback, read by message (readOutput): when the zoom opens and whenever its task's
// output moved on. A reply may come later (over a socket): it is applied only if the zoom is still
// on that task, and one read is in flight at a time.
import type {StoreApi} from 'zustand/vanilla';
import {terminalSafe} from '../core/output/visible-text.js';
import {withZoom, zoomOf} from './overlay.js';
import {whenAnswered} from './reply.js';
import type {BatchActions, BatchControl, BatchState, OutputRange} from './store-types.js';
import {withNewOutput} from './zoom.js';

export type ZoomReads = {
	/** Reads the scrollback of the zoom just opened on `id`. */
	opened(id: string): void;
	/** After an output publish: re-reads the zoom's scrollback if its task's output moved. */
	published(): void;
};

export function zoomReads(api: StoreApi<BatchState & BatchActions>, control: BatchControl): ZoomReads {
	let reading = false;
	const apply = (output: OutputRange | undefined) => {
		reading = false;
		const zoom = zoomOf(api.getState().overlay);
		if (output && zoom?.taskId === output.id && output.version !== zoom.version) {
			api.setState({overlay: withZoom(api.getState().overlay, withNewOutput(zoom, {...output, lines: () => output.lines}))});
		}
	};

	const refused = (message: string) => {
		reading = false;
		api.setState({notice: `could not read the output: ${terminalSafe(message)}`});
	};

	const read = (id: string) => {
		reading = true;
		whenAnswered(control.readOutput({id}), apply, refused);
	};

	return {
		opened: read,
		published() {
			const state = api.getState();
			const zoom = zoomOf(state.overlay);
			const version = zoom ? state.tasks[zoom.taskId]?.outputVersion : undefined;
			if (zoom && !reading && version !== undefined && version !== zoom.version) {
				read(zoom.taskId);
			}
		},
	};
}
