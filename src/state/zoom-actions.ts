// The zoom's actions: open a task full-screen, scroll, search. Its lines and matches are asked of
// the control as messages (readOutput, searchOutput); a reply that lands after the zoom closed,
// moved to another task or was overtaken by a newer request is dropped. In-process the replies
// are plain values and everything applies at once, as before the control could be remote.
import type {StoreApi} from 'zustand/vanilla';
import {withZoom, zoomOf, type ZoomLayer} from './overlay.js';
import {whenReplied} from './reply.js';
import type {BatchActions, BatchState} from './store-types.js';
import type {BatchControl} from '../wire/port.js';
import {foundAt, isPastScrollback, openZoom, scrolled, searchStart, shownColumn, sideways, toggledWrap, withNewOutput, type ZoomState} from './zoom.js';

export type ZoomActions = Pick<BatchActions, 'openZoom' | 'scroll' | 'toggleWrap' | 'scrollSideways' | 'startSearch' | 'submitSearch' | 'findNext'>;

type Store = Pick<StoreApi<BatchState & BatchActions>, 'setState' | 'getState'>;

export type ZoomSlice = {
	actions: ZoomActions;
	/**
	 * Output was published: when the zoomed task's published version (`versionOf`) moved past the
	 * zoom's, its lines are read again. `apply` sets the refreshed zoom (the store merges it with
	 * the panes' patch when the reply is at once).
	 */
	follow(versionOf: (id: string) => number | undefined, apply: (zoom: ZoomState) => void): void;
};

export function zoomSlice(store: Store, control: BatchControl): ZoomSlice {
	const set = (patch: Partial<BatchState>) => store.setState(patch);
	const get = () => store.getState();
	let openings = 0;
	let reads = 0;
	/** The read in flight, if any: one at a time, as a busy task publishes faster than a socket may reply. */
	let reading: number | null = null;
	let searches = 0;

	// Scrolling and searching act on the zoom when it has the keyboard.
	const zoomOnTop = (): ZoomLayer | undefined => {
		const {overlay} = get();
		return overlay?.kind === 'zoom' ? overlay : undefined;
	};

	/** Reads the zoomed task's kept lines; `apply` gets the zoom refreshed with them, if it is still the zoom that asked and no newer read was sent. */
	const read = (zoom: ZoomState, apply: (zoom: ZoomState) => void) => {
		const serial = ++reads;
		reading = serial;
		whenReplied(store, control.readOutput({id: zoom.taskId}), `reading ${zoom.taskId}'s output`, range => {
			const current = zoomOf(get().overlay);
			if (serial !== reads || current?.opening !== zoom.opening) {
				return;
			}

			apply(range && range.version !== current.version ? withNewOutput(current, range) : current);
		}, () => {
			if (reading === serial) {
				reading = null;
			}
		});
	};

	const setZoom = (zoom: ZoomState) => {
		set({overlay: withZoom(get().overlay, zoom)});
	};

	const showMatch = (zoom: ZoomState, line: number | null, direction: 1 | -1) => {
		const outcome = foundAt(zoom, line, direction);
		const {overlay} = get();
		if ('notice' in outcome) {
			set(zoom === zoomOf(overlay) ? {notice: outcome.notice} : {notice: outcome.notice, overlay: withZoom(overlay, zoom)});
		} else {
			set({notice: null, overlay: withZoom(overlay, outcome.zoom)});
		}
	};

	return {
		follow(versionOf, apply) {
			const zoom = zoomOf(get().overlay);
			const published = zoom ? versionOf(zoom.taskId) : undefined;
			if (zoom && reading === null && published !== undefined && published !== zoom.version) {
				read(zoom, refreshed => {
					if (refreshed !== zoomOf(get().overlay)) {
						apply(refreshed);
					}
				});
			}
		},

		actions: {
			openZoom(visibleLines) {
				const id = get().focusedId;
				if (id && get().overlay === null) {
					const zoom = openZoom(id, ++openings, visibleLines);
					set({overlay: {kind: 'zoom', zoom, searching: null}});
					read(zoom, setZoom);
				}
			},

			scroll(delta, visibleLines) {
				const layer = zoomOnTop();
				if (layer) {
					set({overlay: {...layer, zoom: scrolled(layer.zoom, delta, visibleLines)}});
				}
			},

			toggleWrap() {
				const layer = zoomOnTop();
				if (layer) {
					set({overlay: {...layer, zoom: toggledWrap(layer.zoom)}});
				}
			},

			scrollSideways(delta, columns) {
				const layer = zoomOnTop();
				if (layer) {
					set({overlay: {...layer, zoom: sideways(layer.zoom, delta, shownColumn(layer.zoom, columns))}});
				}
			},

			startSearch() {
				const layer = zoomOnTop();
				if (layer) {
					set({overlay: {...layer, zoom: {...layer.zoom, search: {query: '', matchLine: null}}, searching: {value: '', cursor: 0}}, notice: null});
				}
			},

			submitSearch() {
				const layer = zoomOnTop();
				if (layer?.searching) {
					set({overlay: {...layer, zoom: {...layer.zoom, search: {...layer.zoom.search, query: layer.searching.value}}, searching: null}});
					get().findNext(-1);
				}
			},

			findNext(direction) {
				const layer = zoomOnTop();
				if (!layer || layer.zoom.search.query === '') {
					return;
				}

				const {zoom} = layer;
				const serial = ++searches;
				const request = {id: zoom.taskId, query: zoom.search.query, from: searchStart(zoom, direction), direction};
				whenReplied(store, control.searchOutput(request), `searching ${zoom.taskId}'s output`, ({line}) => {
					const current = zoomOf(get().overlay);
					// Another search since, another zoom, or the query changed: this answer is not to it.
					if (serial !== searches || current?.opening !== zoom.opening || current.search.query !== request.query) {
						return;
					}

					if (line !== null && isPastScrollback(current, line)) {
						// Found in output newer than the zoom's copy: read it first, then show the match in it.
						read(current, refreshed => {
							if (serial === searches) {
								showMatch(refreshed, line, direction);
							}
						});
					} else {
						showMatch(current, line, direction);
					}
				});
			},
		},
	};
}
