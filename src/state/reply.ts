// A control's reply, given at once (in-process) or later (over a socket). `whenAnswered` applies it
// either way and turns a refusal into a notice, never an unhandled rejection. The steering slices
// still decide synchronously from their reply: for them `answeredNow` takes an at-once reply and
// refuses a later one loudly instead of reading it as if it had come (seam 1 of issue 23 makes
// them apply replies when they arrive; until then a dashboard attached over a socket cannot steer).
import type {Reply} from './store-types.js';

export function whenAnswered<T>(reply: Reply<T>, apply: (value: T) => void, refused: (message: string) => void): void {
	if (reply instanceof Promise) {
		reply.then(apply, (error: unknown) => refused(error instanceof Error ? error.message : String(error)));
		return;
	}

	apply(reply);
}

export function answeredNow<T>(reply: Reply<T>, what: string): T {
	if (reply instanceof Promise) {
		reply.catch(() => undefined);
		throw new TypeError(`${what}: this store applies only replies given at once (an in-process control); a socket's reply needs the store of issue 23, seam 1`);
	}

	return reply;
}
