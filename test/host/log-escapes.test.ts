// What a client sends reaches host.log only made terminal-safe: an escape sequence in an unknown
// key of its JSON (quoted back in the reason it is closed for) would otherwise act on whoever reads
// the log in a terminal.
import {describe, expect, it} from 'vitest';
import {protocolVersion} from '../../src/wire/protocol.js';
import {hostTestsAfterEach} from '../helpers/hosted-batch.js';
import {rawClient} from '../helpers/raw-socket.js';

const {host} = hostTestsAfterEach();

describe('host.log and a hostile client', () => {
	it('gets no escape sequence or line break from an unknown JSON key', async () => {
		const batch = await host(['[fake:duration=0.2] one']);
		const client = await rawClient(batch.socketPath);
		client.send(`${JSON.stringify({type: 'hello', protocol: protocolVersion, client: 'hostile'})}\n`);
		await client.until('snapshot');
		const key = '\u001B]0;owned\u0007\u001B[2J\nforged log line';
		client.send(`${JSON.stringify({type: 'read-output', rid: 1, id: 't01', [key]: 1})}\n`);
		await client.untilClosed();
		const closed = batch.logs.find(line => line.includes('closed: malformed message'));
		expect(closed).toBeDefined();
expect(closed).toContain('forged log line');
		expect(batch.logs.join('\n')).not.toMatch(/[\u001B\u0007]/);
		expect(batch.logs.some(line => line.startsWith('forged log line'))).toBe(false);
	});
});
