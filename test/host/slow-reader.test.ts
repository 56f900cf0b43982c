// A client that stops reading costs the host a bounded amount of memory, whatever the batch
// prints meanwhile; once it reads again it gets a fresh snapshot and goes on live from there.
import {describe, expect, it} from 'vitest';
import {protocolVersion} from '../../src/wire/protocol.js';
import {hostTestsAfterEach} from '../helpers/hosted-batch.js';
import {rawClient} from '../helpers/raw-socket.js';
import {waitFor} from '../helpers/wait-for.js';

const {host} = hostTestsAfterEach();

const maxQueueBytes = 256 * 1024;

describe('a client that reads too slowly', () => {
	it('is queued no more than the bound while the batch floods, then gets a fresh snapshot and the live events', {timeout: 60_000}, async () => {
		// Three tasks print ~6 MB each; every publish of a 2000-line tail is ~128 KB a task.
		const flood = '[fake:lines=100000] flood';
		const batch = await host([flood, flood, flood], {maxQueueBytes, publishHz: 50, busyPublishHz: 50});
		const slow = await rawClient(batch.socketPath);
		slow.send(`${JSON.stringify({type: 'hello', protocol: protocolVersion, client: 'slow', tailLines: 2000})}\n`);
		await slow.until('snapshot');
		slow.socket.pause();
		const report = await batch.runner.start();
		expect(report.results.map(result => result.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
		expect(batch.logs.some(line => line.includes('reads too slowly'))).toBe(true);
		const peak = batch.server.peakQueuedBytes();
		// What the host would have queued without the bound: every publish of the flood.
		expect(peak).toBeLessThan(report.results.length * 100_000 * 64 / 10);

		slow.socket.resume();
		await waitFor(() => slow.messages.findLast(message => message.type === 'snapshot' && message['seq'] === batch.events.length) !== undefined, {message: 'a fresh snapshot of the finished batch once the client reads again'});
		const fresh = slow.messages.findLast(message => message.type === 'snapshot')!;
		const events = fresh['events'] as Array<{seq: number; event: {type: string}}>;
		expect(events.at(-1)?.event.type).toBe('batch.finished');
		expect(events.at(-1)?.seq).toBe(batch.events.length);
		// The bound: what was queued never passed the larger of the limit and twice a snapshot, plus the one message that crossed it.
		const largestSnapshot = Math.max(...slow.messages.map((message, index) => (message.type === 'snapshot' ? slow.lineBytes[index]! : 0)));
		expect(peak).toBeLessThanOrEqual(Math.max(maxQueueBytes, 2 * largestSnapshot) + Math.max(...slow.lineBytes));
		// Live again: a request is answered.
		slow.send(`${JSON.stringify({type: 'read-output', rid: 9, id: 't01', last: 1})}\n`);
		expect(await slow.until('reply', message => message['rid'] === 9)).toMatchObject({ok: true, value: {id: 't01', lines: [expect.stringContaining('line 00100000')]}});
	});
});
