// An agent printing a line at a time, often, is read a few lines at a time: after a small read
// soon after the one before its pipe is held (not read, the kernel keeps what it prints) until a
// release, the hold's own deadline or the agent's exit; a big read, or one long after the last,
// is never held. Real child processes and pipes; the clock (Date) and the hold's deadline
// (setTimeout) are faked, so that only the release under test can end a hold.
import {spawn, type ChildProcessByStdio} from 'node:child_process';
import {Writable, type Readable} from 'node:stream';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {pipeWithBackpressure} from '../../../src/core/output/output-pipe.js';
import {busyGapMs, holdAfterRead, holdMs, isHeld, releaseHeldReads, smallReadBytes} from '../../../src/core/output/read-hold.js';
import {setTimeout as sleep} from 'node:timers/promises';

/** waitFor (helpers/wait-for.ts) on timers the test does not fake: a safety net, never what is asserted. */
async function waitFor(predicate: () => boolean, {message}: {message: string}): Promise<void> {
	const deadline = performance.now() + 15_000;
	while (!predicate()) {
		if (performance.now() > deadline) throw new Error(`timed out waiting for ${message}`);
		await sleep(5);
	}
}

/**
 * A stand-in agent: for each line on stdin, `say X` prints X on stdout and then `said` on fd 3
 * (a pipe nothing holds: it says the line is in the stdout pipe); `big N` prints N bytes at once;
 * `exit` prints `last` and exits.
 */
const agentSource = `
const fs = require('node:fs');
let rest = '';
process.stdin.on('data', data => {
	const lines = (rest + data).split('\\n');
	rest = lines.pop();
	for (const line of lines) {
		const [word, arg] = line.split(' ');
		if (word === 'say') { fs.writeSync(1, arg + '\\n'); fs.writeSync(3, 'said\\n'); }
		if (word === 'big') { fs.writeSync(1, 'x'.repeat(Number(arg))); fs.writeSync(3, 'said\\n'); }
		if (word === 'exit') { fs.writeSync(1, 'last\\n'); process.exit(0); }
	}
});`;

type Agent = {
	child: ChildProcessByStdio<Writable, Readable, null>;
	chunks: string[];
	/** `command`, and its answer on fd 3 awaited: what it printed is in the stdout pipe. */
	tell(command: string): Promise<void>;
	exited: Promise<unknown>;
};

const agents: Agent[] = [];

function startAgent(): Agent {
	const child = spawn(process.execPath, ['-e', agentSource], {stdio: ['pipe', 'pipe', 'inherit', 'pipe']}) as unknown as Agent['child'];
	const side = (child as unknown as {stdio: Readable[]}).stdio[3]!;
	let said = 0;
	side.on('data', (data: Buffer) => {
		said += data.toString().split('\n').length - 1;
	});
	const chunks: string[] = [];
	const exited = new Promise(resolve => child.once('exit', resolve));
	const discard = new Writable({write: (_chunk, _encoding, callback) => callback()});
	pipeWithBackpressure(child.stdout, discard, chunk => chunks.push(chunk.toString()), undefined, exited);
	const agent: Agent = {
		child, chunks, exited,
		async tell(command) {
			const before = said;
			child.stdin.write(`${command}\n`);
			await waitFor(() => said > before, {message: `the agent's answer to ${command}`});
		},
	};
	agents.push(agent);
	return agent;
}

/** A few turns of the event loop, each with its poll for I/O: a readable pipe that is read would be by then. */
async function turns(count = 5): Promise<void> {
	for (let turn = 0; turn < count; turn++) {
		await new Promise(resolve => {
			setImmediate(resolve);
		});
	}
}

beforeEach(() => {
	vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout', 'Date']});
});

afterEach(() => {
	releaseHeldReads();
	vi.useRealTimers();
	for (const agent of agents.splice(0)) agent.child.kill('SIGKILL');
});

/** Two lines, the second read at once after the first (the clock stands still): the pipe is then held. */
async function twoQuickLines(agent: Agent): Promise<void> {
	await agent.tell('say zero');
	await waitFor(() => agent.chunks.length === 1, {message: 'the first line'});
	expect(isHeld(agent.child.stdout)).toBe(false); // A first read follows nothing: not held.
	await agent.tell('say one');
	await waitFor(() => agent.chunks.length === 2, {message: 'the second line'});
	expect(isHeld(agent.child.stdout)).toBe(true);
}

describe('reading an agent that prints a line at a time', () => {
	it('holds the pipe after a small read and reads what came meanwhile in one read at the release', async () => {
		const agent = startAgent();
		await twoQuickLines(agent);
		await agent.tell('say two');
		await agent.tell('say three');
		await turns();
		expect(agent.chunks).toEqual(['zero\n', 'one\n']); // Both lines wait in the pipe.

		releaseHeldReads();
		await waitFor(() => agent.chunks.length === 3, {message: 'the held lines'});
		expect(agent.chunks).toEqual(['zero\n', 'one\n', 'two\nthree\n']);
	});

	it('does not hold a pipe read long after its last read (a slow trickle: nothing would gather)', async () => {
		const agent = startAgent();
		await agent.tell('say zero');
		await waitFor(() => agent.chunks.length === 1, {message: 'the first line'});
		vi.setSystemTime(Date.now() + busyGapMs);
		await agent.tell('say one');
		await waitFor(() => agent.chunks.length === 2, {message: 'the second line'});
		expect(isHeld(agent.child.stdout)).toBe(false);
	});

	it('reads a held pipe at the latest holdMs after the hold began', async () => {
		const agent = startAgent();
		await twoQuickLines(agent);
		await agent.tell('say two');
		await turns();
		expect(agent.chunks).toEqual(['zero\n', 'one\n']);

		vi.advanceTimersByTime(holdMs);
		await waitFor(() => agent.chunks.length === 3, {message: 'the held line'});
		expect(agent.chunks[2]).toBe('two\n');
	});

	it('reads a held pipe to its end as soon as the agent exits, with no release', async () => {
		const agent = startAgent();
		await twoQuickLines(agent);
		const ended = new Promise(resolve => agent.child.stdout.once('end', resolve));
		agent.child.stdin.write('exit\n');
		await agent.exited;
		await ended;
		expect(agent.chunks.join('')).toBe('zero\none\nlast\n');
	});

	it('never holds after a big read (a flood is read as fast as it comes)', async () => {
		const agent = startAgent();
		// Runs after pipeWithBackpressure's own listener: whether that read left the pipe held.
		const heldAfter: Array<[number, boolean]> = [];
		agent.child.stdout.on('data', (chunk: Buffer) => heldAfter.push([chunk.length, isHeld(agent.child.stdout)]));
		await agent.tell('say zero');
		await agent.tell(`big ${smallReadBytes * 4}`);
		await waitFor(() => {
			releaseHeldReads(); // However the kernel cuts the big write, a small piece of it must not stall the rest.
			return agent.chunks.join('').length === 'zero\n'.length + smallReadBytes * 4;
		}, {message: 'the big write'});
		const big = heldAfter.filter(([length]) => length >= smallReadBytes);
		expect(big.length).toBeGreaterThan(0);
		expect(big.every(([, held]) => !held)).toBe(true);
		releaseHeldReads();
		holdAfterRead(agent.child.stdout, smallReadBytes, 0);
		expect(isHeld(agent.child.stdout)).toBe(false);
		holdAfterRead(agent.child.stdout, smallReadBytes - 1, 0);
		expect(isHeld(agent.child.stdout)).toBe(true);
	});
});
