// A client that asks and never reads its replies costs the detached runner host no more than the
// per-client bound (8 MiB): its requests wait unread once that much waits for it; the host lives
// on and its batch completes. (Issue 36, item 6: 25 KB of read-output requests once took a host to
// 3.7 GB.)
import {readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {readHostStatus} from '../../src/wire/host-json.js';
import {protocolVersion} from '../../src/wire/protocol.js';
import type {BatchReport} from '../../src/core/types.js';
import {isProcessRunning} from '../helpers/processes.js';
import {rawClient} from '../helpers/raw-socket.js';
import {makeHome, runCli, tasksJson} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/wait-for.js';

/** The most memory the process has held (VmHWM, in bytes). */
function peakRss(pid: number): number {
	const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
	return Number(kb) * 1024;
}

describe('a client that sends requests and never reads', () => {
	it('leaves the host within the bound, alive, and the batch complete', {timeout: 120_000}, async () => {
		const test = makeHome();
		onTestFinished(() => test.remove());
		const go = path.join(test.dir, 'go');
		// t01 keeps 2000 lines of ~1.9 KB (3.8 MB): each read-output of all of it is as large as it gets.
		const started = await runCli(test, ['run', '--detach', tasksJson(
			{goal: 'big', context: '[fake:lines=2000] [fake:line-bytes=1900]'},
			{goal: 'until told', context: `[fake:until-file=${go}]`},
		)]);
		expect(started.exitCode, started.stderr).toBe(0);
		const runId = started.stdout.trim();
		const dir = path.join(test.runsDir, runId);
		await waitFor(() => readHostStatus(dir)?.tasks['succeeded'] === 1, {message: 't01 to finish'});
		const host = readHostStatus(dir)!;
		const before = peakRss(host.pid);

		const greedy = await rawClient(host.socket);
		greedy.send(`${JSON.stringify({type: 'hello', protocol: protocolVersion, client: 'greedy'})}\n`);
		await greedy.until('snapshot');
		greedy.socket.pause();
		// 25 KB of requests in one write, as in the attack: each would be answered with 3.8 MB.
		const request = (rid: number) => `${JSON.stringify({type: 'read-output', rid, id: 't01'})}\n`;
		greedy.send(Array.from({length: 500}, (_, rid) => request(rid)).join(''));
		await waitFor(() => readFileSync(path.join(dir, 'host.log'), 'utf8').includes('client #1 (greedy): reads too slowly'), {message: 'the host to see the greedy client fall behind'});

		// Another client is served meanwhile, and the batch completes.
		writeFileSync(go, '');
		const waited = await runCli(test, ['wait', runId]);
		expect(waited.exitCode, waited.stderr).toBe(0);
		expect((JSON.parse(waited.stdout) as BatchReport).results.map(result => result.status)).toEqual(['succeeded', 'succeeded']);
		expect(isProcessRunning(host.pid)).toBe(true);
		// Over what the host held before: the bound (8 MiB), four replies in flight (1 MiB each), `wait`'s
		// snapshot, and the garbage of reading a 3.8 MB pane per request until the collector runs (~70 MB
		// here, for 500 requests as for 2000). Without the bound: 2 GB.
		expect(peakRss(host.pid) - before).toBeLessThan(128 * 1024 * 1024);

		// Once it reads, it gets its replies: those it asked for before it fell behind first.
		greedy.socket.resume();
		const first = await greedy.until('reply', message => message['rid'] === 0);
		expect(first).toMatchObject({ok: true, value: {id: 't01'}});
		// Bounded in size (1 MiB of lines): the newest, numbered from where they begin.
		const range = first['value'] as {first: number; totalLines: number; lines: string[]};
		expect(greedy.lineBytes[greedy.messages.indexOf(first as never)]).toBeLessThan(1.1 * 1024 * 1024);
		expect(range.first).toBeGreaterThan(0);
		expect(range.first + range.lines.length).toBe(range.totalLines);
		expect(range.lines).toContainEqual(expect.stringContaining('line 00002000'));
	});
});
