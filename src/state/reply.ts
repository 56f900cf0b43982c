// A control's reply, in a branch where the slices still decide synchronously: an in-process control
// answers at once and that answer is used; a reply that will only come later (a socket's) is
// refused loudly instead of being read as if it had come. Seam 1 of issue 23 replaces this with
// replies applied when they arrive; until then a dashboard attached over a socket cannot steer.
import type {Reply} from './store-types.js';

export function answeredNow<T>(reply: Reply<T>, what: string): T {
	if (reply instanceof Promise) {
		reply.catch(() => undefined);
		throw new TypeError(`${what}: this store applies only replies given at once (an in-process control); a socket's reply needs the store of issue 23, seam 1`);
	}

	return reply;
}
