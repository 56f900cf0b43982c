// Only the user who started the batch may attach. Two locks: the socket lives in a 0700 folder
// (another user cannot reach it), and the peer's uid is checked on every connection, so that even
// a socket made reachable by mistake serves no one else.
import {execFile} from 'node:child_process';
import {chmodSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {peerPids} from '../../src/host/peer.js';
import {protocolVersion} from '../../src/wire/protocol.js';
import {hostTestsAfterEach} from '../helpers/hosted-batch.js';
import {rawClient} from '../helpers/raw-socket.js';

const {scratch, host} = hostTestsAfterEach();

const nobody = 65_534;
const isRoot = process.getuid?.() === 0;
/** Connects, says hello, prints what it got (or its error) as JSON: run as another user. */
const probe = `const net = require('node:net');
const socket = net.connect(process.argv[1]);
let received = '';
socket.setEncoding('utf8');
socket.on('data', chunk => { received += chunk; });
socket.on('connect', () => socket.write(JSON.stringify({type: 'hello', protocol: ${protocolVersion}}) + '\\n'));
socket.on('error', error => { console.log(JSON.stringify({error: error.code})); process.exit(0); });
socket.on('close', () => console.log(JSON.stringify({received})));`;

async function asNobody(socketPath: string): Promise<{error?: string; received?: string}> {
	return new Promise((resolve, reject) => {
		execFile('setpriv', [`--reuid=${nobody}`, `--regid=${nobody}`, '--clear-groups', process.execPath, '-e', probe, socketPath], {cwd: '/', timeout: 20_000}, (error, stdout, stderr) => {
			if (error) reject(new Error(`${error.message}\n${stderr}`));
			else resolve(JSON.parse(stdout.trim()) as {error?: string; received?: string});
		});
	});
}

describe('another user', () => {
	it.skipIf(!isRoot)('cannot reach the socket: its folder is 0700 (needs root to become nobody)', async () => {
		const batch = await host(['[fake:duration=0.1]']);
		// Every folder above the run folder open, as a home usually is: the run folder alone keeps nobody out.
		for (let folder = path.dirname(batch.runDir); folder.startsWith(path.dirname(path.dirname(path.dirname(batch.runDir)))); folder = path.dirname(folder)) chmodSync(folder, 0o755);
		expect(await asNobody(batch.socketPath)).toEqual({error: 'EACCES'});
		expect(batch.server.clients()).toBe(0);
	});

	it.skipIf(!isRoot)('is refused by its uid even when the socket was made reachable (needs root to become nobody)', async () => {
		const batch = await host(['[fake:duration=0.1]']);
		for (let folder = batch.runDir; folder.startsWith(path.dirname(path.dirname(path.dirname(batch.runDir)))); folder = path.dirname(folder)) chmodSync(folder, 0o755);
		chmodSync(batch.socketPath, 0o666);
		const {received} = await asNobody(batch.socketPath);
		const lines = received!.trim().split('\n').map(line => JSON.parse(line) as {type: string; reason?: string});
		expect(lines).toEqual([{type: 'bye', reason: 'refused: only the user who started this batch may attach to it'}]);
		expect(batch.logs).toContainEqual(expect.stringMatching(/refused: pid \d+ \(the peer\) runs as uid 65534\/65534, not 0/));
		expect(batch.server.clients()).toBe(0);
		// The same user still attaches.
		const ours = await rawClient(batch.socketPath);
		ours.send(`${JSON.stringify({type: 'hello', protocol: protocolVersion})}\n`);
		expect(await ours.until('snapshot')).toMatchObject({type: 'snapshot'});
		ours.socket.destroy();
	});
});

describe('the serving folder', () => {
	it('is refused when it is open to others, and no socket is made', async () => {
		const folder = scratch.folder('open-run-');
		chmodSync(folder, 0o755);
		const {serveBatch} = await import('../../src/host/server.js');
		const batch = await host(['[fake:duration=0.1]']);
		await expect(serveBatch({runner: batch.runner, control: batch.control, plan: batch.runner.plan, runId: 'r', runDir: folder, concurrency: 1, graceMs: 0, canSteer: false, canReroute: false}, path.join(folder, 'host.sock'))).rejects.toThrow(/is open to others \(mode 755\); a run folder is 0700/);
	});

	it('refuses to serve where a live host already serves', async () => {
		const batch = await host(['[fake:duration=0.1]']);
		const {serveBatch} = await import('../../src/host/server.js');
		await expect(serveBatch({runner: batch.runner, control: batch.control, plan: batch.runner.plan, runId: 'r', runDir: batch.runDir, concurrency: 1, graceMs: 0, canSteer: false, canReroute: false}, batch.socketPath)).rejects.toThrow(/a runner host already serves/);
	});
});

describe('reading the socket table', () => {
	it("finds the processes holding the peer's end by its inode", () => {
		const table = [
			'u_str ESTAB 0      0      /tmp/a run/host.sock 31119 * 31118 users:(("node",pid=14790,fd=21))',
			'u_str ESTAB 0      0                      * 31118 * 31119 users:(("node",pid=14791,fd=20),("sh",pid=14792,fd=3))',
			'u_str ESTAB 0      0                      * 40000 * 40001',
		].join('\n');
		expect(peerPids(table, '31119')).toEqual([14791, 14792]);
		expect(peerPids(table, '40001')).toBeUndefined();
		expect(peerPids(table, '99')).toBeUndefined();
	});
});
