// SIGINT, SIGTERM or SIGHUP to hermes-delegate: every running task gets the kill cascade and
// the results so far are written. A second signal skips the grace period, so an operator
// is never stuck waiting on a subagent that ignores SIGTERM.
export function onShutdownSignals(shutdown: (options: {skipGrace: boolean}) => void): () => void {
	let received = 0;
	const handler = () => {
		received++;
		shutdown({skipGrace: received > 1});
	};

	const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
	for (const signal of signals) {
		process.on(signal, handler);
	}

	return () => {
		for (const signal of signals) {
			process.off(signal, handler);
		}
	};
}
