// Writes to a pipe are asynchronous: what the reader has not taken yet waits in our process.
// process.exit() would throw it away (a slow `| wc -c` got 64 KiB of a 228 KB report), so the
// CLI waits here until every byte written so far has been handed to the kernel.

/** Resolves once everything written to `stream` so far is flushed, or the stream has failed. */
export async function flushed(stream: NodeJS.WritableStream & {writableLength?: number; destroyed?: boolean}): Promise<void> {
	if (stream.destroyed || (stream.writableLength ?? 0) === 0) {
		return;
	}

	await new Promise<void>(resolve => {
		const done = () => {
			stream.off('error', done);
			stream.off('close', done);
			resolve();
		};

		// A reader that went away ends the wait too: what is left can never be delivered.
		stream.once('error', done);
		stream.once('close', done);
		// An empty write completes after every write queued before it.
		stream.write('', () => done());
	});
}
