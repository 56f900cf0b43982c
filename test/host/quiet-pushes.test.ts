// When the runner host pushes panes to an attached dashboard: when a pane changed, never on a
// clock (quiet tasks cost it no wake-ups: seen through the pacer's load probe, which the host asks
// each time it schedules a push, core/output/publish-pace.ts), and a task's last lines before the
// event that says it finished, however far off the pacer's next slot is.
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {setTimeout as delay} from 'node:timers/promises';
import {describe, expect, it} from 'vitest';
import {protocolVersion} from '../../src/wire/protocol.js';
import type {OutputDelta} from '../../src/wire/tail-delta.js';
import {hostTestsAfterEach} from '../helpers/hosted-batch.js';
import {rawClient} from '../helpers/raw-socket.js';
import {waitFor} from '../helpers/wait-for.js';

const {host, scratch} = hostTestsAfterEach();

describe('the runner host with a dashboard attached', () => {
	it('wakes for nothing while the tasks are quiet, and pushes once one prints', async () => {
		const folder = scratch.folder('quiet-pushes-');
		const go = path.join(folder, 'go');
		let asked = 0;
		// 1000 pushes a second at most: a host on a clock would ask its pacer ~100 times in the window below.
		const batch = await host([`[fake:after-file=${go}] [fake:lines=3] quiet, then three lines`], {publishHz: 1000, busyPublishHz: 1000, load: () => {
			asked++;
			return 0;
		}});
		const client = await rawClient(batch.socketPath);
		client.send(`${JSON.stringify({type: 'hello', protocol: protocolVersion, client: 'raw', tailDelta: true})}\n`);
		await client.until('snapshot');
		const finished = batch.runner.start();
		await waitFor(() => batch.runner.output('t01') !== undefined, {message: 'the task to start'});
		const output = batch.runner.output('t01')!;

		// A window in which the task's pane does not change (retried if the agent printed anything).
		let quiet = false;
		for (let attempt = 0; attempt < 20 && !quiet; attempt++) {
			const [version, before] = [output.version, asked];
			await delay(100);
			if (output.version === version) {
				expect(asked).toBe(before);
				quiet = true;
			}
		}

		expect(quiet).toBe(true);
		const before = asked;
		writeFileSync(go, '');
		const pushed = () => client.messages.filter(message => message.type === 'output').some(message => ((message['changes'] as Record<string, OutputDelta>)['t01']?.fresh ?? []).some(line => line.includes('line 00000003')));
		await waitFor(pushed, {message: 'the three lines pushed'});
		expect(asked).toBeGreaterThan(before);
		await finished;
	});

	it("sends a task's last lines before its task.finished, not at the pacer's next slot", async () => {
		// One push every 20 s at most: only the flush before the event can bring the answer in time.
		const batch = await host(['[fake:duration=0.2] answer at the end'], {publishHz: 0.05, busyPublishHz: 0.05});
		const client = await rawClient(batch.socketPath);
		client.send(`${JSON.stringify({type: 'hello', protocol: protocolVersion, client: 'raw', tailDelta: true})}\n`);
		await client.until('snapshot');
		await batch.runner.start();
		const finishedAt = () => client.messages.findIndex(message => message.type === 'event' && (message['event'] as {type: string}).type === 'task.finished');
		await waitFor(() => finishedAt() >= 0, {message: 'the task.finished event'});
		const answeredAt = client.messages.findIndex(message => message.type === 'output' && ((message['changes'] as Record<string, OutputDelta>)['t01']?.fresh ?? []).some(line => line.includes('Fake answer: answer at the end')));
		expect(answeredAt).toBeGreaterThanOrEqual(0);
		expect(answeredAt).toBeLessThan(finishedAt());
	});
});
