// The offer stream is made by whoever connects first to a server without it. A runner host and its
// workers often start together: their creations race, and NATS refuses the later ones ("subjects
// overlap with an existing stream") although the stream each wanted is there.
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openNats, type Nats} from '../../src/distributed/connection.js';
import {natsServerPath, natsSkipReason, startNatsServer, stopNatsServer, testSigner, type NatsServer} from '../helpers/nats-fleet.js';

describe.skipIf(!natsServerPath)(`the first members on a fresh NATS server${natsServerPath ? '' : ` (${natsSkipReason})`}`, () => {
	const servers: NatsServer[] = [];
	beforeAll(async () => {
		for (let i = 0; i < 40; i++) servers.push(await startNatsServer());
	});
	afterAll(async () => {
		for (const server of servers) await stopNatsServer(server);
	});

	it('all connect when they ready its stream at the same moment', async () => {
		for (const server of servers) {
			const opened = await Promise.allSettled(Array.from({length: 12}, (_, i) => openNats(server.url, `member ${i}`, {}, testSigner())));
			const refused = opened.flatMap(result => (result.status === 'rejected' ? [String(result.reason)] : []));
			for (const result of opened) if (result.status === 'fulfilled') await (result.value as Nats).close();
			expect(refused).toEqual([]);
		}
	});
});
