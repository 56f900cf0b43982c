// A BatchControl whose messages reply later, as one across a socket would: every reply is a
// promise, answered from the wrapped control at the moment of the request, and either lands by
// itself or is held until the test releases (or fails) it, in any order.
import type {BatchControl} from '../../src/wire/port.js';

type Held = {method: string; release(): void; fail(error: Error): void};

export class Replies {
	readonly held: Held[] = [];
	private readonly sent: Array<Promise<unknown>> = [];

	constructor(private readonly mode: 'land' | 'hold') {}

	later<T>(method: string, answer: () => T | Promise<T>): Promise<T> {
		const value = answer();
		let entry!: Held;
		const promise = new Promise<T>((resolve, reject) => {
			entry = {method, release: () => resolve(value), fail: reject};
		});
		// What landed() waits for: released replies only (a held one may never be).
		const settle = entry.release;
		const fail = entry.fail;
		entry.release = () => {
			this.sent.push(promise.catch(() => undefined));
			settle();
		};

		entry.fail = error => {
			this.sent.push(promise.catch(() => undefined));
			fail(error);
		};

		if (this.mode === 'land') {
			entry.release();
		} else {
			this.held.push(entry);
		}

		return promise;
	}

	/** Releases (or fails) the `index`th held reply to `method`, oldest first. */
	release(method: string, index = 0, error?: Error): void {
		const matching = this.held.filter(entry => entry.method === method);
		const entry = matching[index];
		if (!entry) {
			throw new Error(`no held ${method} reply #${index} (held: ${this.held.map(held => held.method).join(', ') || 'none'})`);
		}

		this.held.splice(this.held.indexOf(entry), 1);
		if (error) {
			entry.fail(error);
		} else {
			entry.release();
		}
	}

	/** Every reply released so far has been applied, and so have the replies their landing asked for (when they land by themselves). */
	async landed(): Promise<void> {
		for (;;) {
			const batch = this.sent.splice(0);
			// One turn of the event loop: every promise callback chained on the replies has run.
			await Promise.all(batch);
			await new Promise(resolve => setImmediate(resolve));
			if (batch.length === 0 && this.sent.length === 0) {
				return;
			}
		}
	}
}

/** `inner` behind replies the test releases (or that land by themselves); its reads (routing, profiles) stay reads. */
export function asyncControl(inner: BatchControl, replies: Replies): BatchControl {
	const {steer, reroute, reload, routing, profiles} = inner;
	return {
		cancel: (id, options) => replies.later('cancel', () => inner.cancel(id, options)),
		shutdown: options => replies.later('shutdown', () => inner.shutdown(options)),
		readOutput: request => replies.later('readOutput', () => inner.readOutput(request)),
		searchOutput: request => replies.later('searchOutput', () => inner.searchOutput(request)),
		...(routing ? {routing: () => routing.call(inner)} : {}),
		...(profiles ? {profiles: () => profiles.call(inner)} : {}),
		...(steer ? {steer: edits => replies.later('steer', () => steer.call(inner, edits))} : {}),
		...(reroute ? {reroute: (id, target) => replies.later('reroute', () => reroute.call(inner, id, target))} : {}),
		...(reload ? {reload: () => replies.later('reload', () => reload.call(inner))} : {}),
	};
}
