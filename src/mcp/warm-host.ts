// `delegate` answers once a runner host has the batch planned and on disk. Most of that wait was
// the host's own start (a second Node process, loading the bundle): so the server keeps one host
// started ahead of the next `delegate`, waiting on its stdin. It reads nothing of the batch (config,
// delegate.yaml, the Hermes binary) before the spec comes, so the plan is as fresh as a host started
// on the spot; once it has a batch it is a runner host like any other. The cost is that idle
// process (a few tens of MiB, no CPU); a spare whose server goes (even by kill -9) sees its stdin
// close and ends, having started nothing.
import {spawnHost, type Launched, type PendingHost} from '../client/launch.js';
import type {HostSpec} from '../wire/launch.js';

export class WarmHost {
	private spare: PendingHost | undefined;
	private closed = false;

	constructor(private readonly env: NodeJS.ProcessEnv, private readonly start: typeof spawnHost = spawnHost) {}

	/** Starts the spare when there is none (or it has ended). */
	warm(): void {
		if (this.closed || this.spare?.alive()) return;
		this.spare = this.start({env: this.env});
	}

	/** The batch to the spare (or to a host started now), and the next spare once this one has answered. */
	async launch(spec: HostSpec): Promise<Launched> {
		const host = this.spare?.alive() ? this.spare : this.start({env: this.env});
		this.spare = undefined;
		try {
			return await host.launch(spec);
		} finally {
			// After the answer has gone out: the next spare's start must not delay this one.
			setImmediate(() => {
				this.warm();
			});
		}
	}

	/** The session has ended: the spare is let go (it ends by itself). */
	close(): void {
		this.closed = true;
		this.spare?.discard();
		this.spare = undefined;
	}
}
