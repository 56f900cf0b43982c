// WarmHost: which host a `delegate` gets (the spare when it is alive, else one started now), and
// that the next spare starts only after the answer, and never after the session has ended.
import {describe, expect, it} from 'vitest';
import type {Launched, PendingHost} from '../../src/client/launch.js';
import {WarmHost} from '../../src/mcp/warm-host.js';
import type {HostSpec} from '../../src/wire/launch.js';

const spec: HostSpec = {command: 'run', taskArg: '-', options: {}, stdinIsTTY: false, stdin: '[]', color: false};

function fakeHosts() {
	const started: Array<PendingHost & {name: string; dead: boolean; discarded: boolean; specs: HostSpec[]}> = [];
	const start = () => {
		const host = {
			name: `host ${started.length + 1}`,
			dead: false,
			discarded: false,
			specs: [] as HostSpec[],
			alive: () => !host.dead,
			async launch(given: HostSpec): Promise<Launched> {
				host.specs.push(given);
				return {type: 'refused', message: host.name, exitCode: 2};
			},
			discard() {
				host.discarded = true;
			},
		};
		started.push(host);
		return host;
	};

	return {started, start};
}

const turn = async () => new Promise(resolve => {
	setImmediate(resolve);
});

describe('WarmHost', () => {
	it('gives the batch to the spare, then starts the next spare after the answer', async () => {
		const {started, start} = fakeHosts();
		const warm = new WarmHost({}, start);
		warm.warm();
		warm.warm();
		expect(started).toHaveLength(1);
		const answer = await warm.launch(spec);
		expect(answer).toMatchObject({message: 'host 1'});
		expect(started[0]!.specs).toEqual([spec]);
		expect(started).toHaveLength(1);
		await turn();
		expect(started).toHaveLength(2);
		expect(started[1]!.specs).toEqual([]);
	});

	it('a spare that has ended is passed over: the batch goes to a host started on the spot', async () => {
		const {started, start} = fakeHosts();
		const warm = new WarmHost({}, start);
		warm.warm();
		started[0]!.dead = true;
		expect(await warm.launch(spec)).toMatchObject({message: 'host 2'});
		expect(started[0]!.specs).toEqual([]);
	});

	it('without a spare, a delegate still starts its host; once closed, the spare is let go and none is started again', async () => {
		const {started, start} = fakeHosts();
		const warm = new WarmHost({}, start);
		expect(await warm.launch(spec)).toMatchObject({message: 'host 1'});
		await turn();
		expect(started).toHaveLength(2);
		warm.close();
		expect(started[1]!.discarded).toBe(true);
		warm.warm();
		await warm.launch(spec);
		await turn();
		expect(started).toHaveLength(3);
	});
});
