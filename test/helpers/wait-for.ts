import {StringDecoder} from 'node:string_decoder';

// Tests wait for events, never for guessed times. The timeouts here are safety nets that turn a
// hang into a failure with a message; they are never what a test asserts.

export type WaitOptions = {
	timeoutMs?: number;
	intervalMs?: number;
	/** What was awaited, for the failure message. */
	message?: string;
};

export async function waitFor(
	predicate: () => boolean | Promise<boolean>,
	{timeoutMs = 15_000, intervalMs = 20, message = 'condition'}: WaitOptions = {},
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (await predicate()) return;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${message}`);
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

/**
 * Resolves with the match of the first complete line matching `pattern`. Attach any collector
 * of your own first: this listener starts the stream flowing and detaches once it has matched.
 */
export async function waitForLine(
	stream: NodeJS.ReadableStream,
	pattern: RegExp,
	{timeoutMs = 15_000}: {timeoutMs?: number} = {},
): Promise<RegExpMatchArray> {
	return new Promise((resolve, reject) => {
		const seen: string[] = [];
		let partial = '';
		// A multi-byte character may be split across chunks.
		const decoder = new StringDecoder('utf8');
		const finish = (settle: () => void) => {
			clearTimeout(timer);
			stream.off('data', onData);
			stream.off('end', onEnd);
			settle();
		};

		const onData = (chunk: Buffer | string) => {
			const lines = (partial + (typeof chunk === 'string' ? chunk : decoder.write(chunk))).split('\n');
			partial = lines.pop() ?? '';
			for (const line of lines) {
				const match = pattern.exec(line);
				if (match) {
					finish(() => resolve(match));
					return;
				}

				seen.push(line);
			}
		};

		const fail = (why: string) => {
			const tail = seen.slice(-10).join('\n');
			finish(() => reject(new Error(`${why} waiting for a line matching ${pattern}; last lines:\n${tail}`)));
		};

		const onEnd = () => {
			const match = partial === '' ? null : pattern.exec(partial);
			if (match) finish(() => resolve(match));
			else fail('stream ended');
		};

		const timer = setTimeout(() => fail(`timed out after ${timeoutMs} ms`), timeoutMs);
		stream.on('data', onData);
		stream.once('end', onEnd);
	});
}
