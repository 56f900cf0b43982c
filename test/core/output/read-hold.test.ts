// An agent printing a line at a time is read a few lines at a time: after a small read its pipe
// is held (not read, the kernel keeps what it prints) until a release, the hold's own deadline or
// the agent's exit; a big read is never held. Real child processes and pipes; the hold's deadline
// is a faked setTimeout, so that only the release under test can end a hold.
import {spawn, type ChildProcessByStdio} from 'node:child_process';
import {Writable, type Readable} from 'node:stream';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {pipeWithBackpressure} from '../../../src/core/output/output-pipe.js';
import {holdAfterRead, holdMs, isHeld, releaseHeldReads, smallReadBytes} from '../../../src/core/output/read-hold.js';
import {setTimeout as sleep} from 'node:timers/promises';

/** waitFor (helpers/wait-for.ts) on timers the test does not fake: a safety net, never what is asserted. */
async function waitFor(predicate: () => boolean, {message}: {message: string}): Promise<void> {
	const deadline = Date.now() + 15_000;
	while (!predicate()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${message}`);
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
	vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']});
});

afterEach(() => {
	releaseHeldReads();
	vi.useRealTimers();
	for (const agent of agents.splice(0)) agent.child.kill('SIGKILL');
});

describe('reading an agent that prints a line at a time', () => {
	it('holds the pipe after a small read and reads what came meanwhile in one read at the release', async () => {
		const agent = startAgent();
		await agent.tell('say one');
		await waitFor(() => agent.chunks.length === 1, {message: 'the first line'});
		expect(agent.chunks).toEqual(['one\n']);
		expect(isHeld(agent.child.stdout)).toBe(true);

		await agent.tell('say two');
		await agent.tell('say three');
		await turns();
		expect(agent.chunks).toEqual(['one\n']); // Both lines wait in the pipe.

		releaseHeldReads();
		await waitFor(() => agent.chunks.length === 2, {message: 'the held lines'});
		expect(agent.chunks).toEqual(['one\n', 'two\nthree\n']);
	});

	it('reads a held pipe at the latest holdMs after the hold began', async () => {
		const agent = startAgent();
		await agent.tell('say one');
		await waitFor(() => agent.chunks.length === 1, {message: 'the first line'});
		await agent.tell('say two');
		await turns();
		expect(agent.chunks).toEqual(['one\n']);

		vi.advanceTimersByTime(holdMs);
		await waitFor(() => agent.chunks.length === 2, {message: 'the held line'});
		expect(agent.chunks[1]).toBe('two\n');
	});

	it('reads a held pipe to its end as soon as the agent exits, with no release', async () => {
		const agent = startAgent();
		await agent.tell('say one');
		await waitFor(() => agent.chunks.length === 1, {message: 'the first line'});
		expect(isHeld(agent.child.stdout)).toBe(true);
		const ended = new Promise(resolve => agent.child.stdout.once('end', resolve));
		agent.child.stdin.write('exit\n');
		await agent.exited;
		await ended;
		expect(agent.chunks.join('')).toBe('one\nlast\n');
	});

	it('never holds after a big read (a flood is read as fast as it comes)', async () => {
		const agent = startAgent();
		await agent.tell(`big ${smallReadBytes * 2}`);
		await waitFor(() => agent.chunks.join('').length === smallReadBytes * 2, {message: 'the big write'});
		// However the kernel cut it, the last read decides: a big one leaves the pipe read.
		expect(isHeld(agent.child.stdout)).toBe(agent.chunks.at(-1)!.length < smallReadBytes);
		releaseHeldReads();
		holdAfterRead(agent.child.stdout, smallReadBytes);
		expect(isHeld(agent.child.stdout)).toBe(false);
		holdAfterRead(agent.child.stdout, smallReadBytes - 1);
		expect(isHeld(agent.child.stdout)).toBe(true);
	});
});
