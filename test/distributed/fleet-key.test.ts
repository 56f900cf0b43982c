// The fleet's keys and what bounds a runner host keeps: `fleet key` writes a member's key for it
// alone and prints its trust line; a NATS URL is read as RFC 3986 says; reports held ahead of a
// gap are bounded.
import {readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {describe, expect, it} from 'vitest';
import {cliPath} from '../helpers/run-cli.js';
import {fakeAgentPath} from '../helpers/processes.js';
import {scratchDir} from '../helpers/nats-fleet.js';
import {connectOptionsFor, parseNatsUrl, shownUrl} from '../../src/distributed/auth.js';
import {InOrder, maxHeldReports} from '../../src/distributed/report-stream.js';
import {messageVersion, type AttemptReport} from '../../src/distributed/messages.js';

describe('hermes-delegate fleet key', () => {
	it('writes the private key for this user only, prints the trust line, and never overwrites a key', async () => {
		const home = scratchDir('hd-key-');
		const env = {...process.env, HERMES_HOME: home, HERMES_DELEGATE_FLEET_KEY: ''};
		const made = await execa(process.execPath, [cliPath, 'fleet', 'key', '--role', 'worker', '--name', 'gpu-1'], {env, reject: false});
		expect(made.exitCode, made.stderr).toBe(0);
		expect(made.stdout).toMatch(/^worker gpu-1 hdk1:[\w-]{43}$/);
		const file = path.join(home, 'delegate', 'fleet', 'key.pem');
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(readFileSync(file, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
		expect(made.stdout + made.stderr).not.toContain(readFileSync(file, 'utf8').split('\n')[1]);
		const again = await execa(process.execPath, [cliPath, 'fleet', 'key', '--role', 'worker', '--name', 'gpu-1'], {env, reject: false});
		expect(again.exitCode).toBe(2);
		expect(again.stderr).toMatch(/exists: a member's key is never overwritten/);
		const badRole = await execa(process.execPath, [cliPath, 'fleet', 'key', '--role', 'admin', '--name', 'x', '--out', path.join(home, 'k')], {env, reject: false});
		expect(badRole.exitCode).toBe(2);
	});

	// Node's recursive mkdir never returns under /proc: the command hung there before.
	it('refuses a folder it cannot make, /proc included: exit 2 naming the folder', async () => {
		const env = {...process.env, HERMES_HOME: scratchDir('hd-key-'), HERMES_DELEGATE_FLEET_KEY: ''};
		const out = `/proc/hermes-delegate-test-${process.pid}/key.pem`;
		const made = await execa(process.execPath, [cliPath, 'fleet', 'key', '--role', 'host', '--name', 'laptop', '--out', out], {env, reject: false, timeout: 30_000, killSignal: 'SIGKILL'});
		expect(made.exitCode).toBe(2);
		expect(made.stderr).toContain(`${out}: cannot write the key (cannot create the folder ${path.dirname(out)}: the file system there does not take new folders (ENOENT))`);
		expect(made.stderr).toContain('fix: pass --out FILE in a folder this user can write');
	});
});

describe('a member outside the fleet', () => {
	it('a worker without a key, or whose key the trust file does not list as it, refuses to start (exit 2) and says the line to add; nothing connects', async () => {
		const home = scratchDir('hd-nokey-');
		const worker = async (env: Record<string, string>) => execa(process.execPath, [cliPath, 'worker', '--nats', 'nats://127.0.0.1:1', '--name', 'gpu-1', '--hermes-bin', fakeAgentPath], {env: {...process.env, HERMES_HOME: home, ...env}, reject: false});
		const none = await worker({HERMES_DELEGATE_FLEET_KEY: path.join(home, 'missing.pem')});
		expect(none.exitCode).toBe(2);
		expect(none.stderr).toMatch(/cannot use this fleet key .*\n {2}fix: make one with `hermes-delegate fleet key --role ROLE --name NAME`/);
		expect(none.stderr).not.toMatch(/cannot reach NATS/);
		// A runner host's key, used by a worker: refused, with the line that would make it one.
		const asHost = await worker({});
		expect(asHost.exitCode).toBe(2);
		expect(asHost.stderr).toMatch(/it lists this key as host test-runner, and this process is worker gpu-1\n {2}fix: add the line `worker gpu-1 hdk1:[\w-]{43}` to the trust file/);
	});
});

describe('a NATS URL', () => {
	it('is read as RFC 3986 says: the user ends at the first ":", percent-decoded; nothing of the secret in what is shown or said', () => {
		expect(parseNatsUrl('nats://hd:a:b%2Fc%40d%25@10.0.0.5:4222')).toEqual({scheme: 'nats', host: '10.0.0.5:4222', user: 'hd', password: 'a:b/c@d%'});
		expect(shownUrl('nats://hd:a:b%2Fc@10.0.0.5:4222')).toBe('nats://10.0.0.5:4222');
		expect(() => parseNatsUrl('nats://hd:pa/ss@host:4222')).toThrow(/a "\/", "\?" or "#" in a password ends the host part/);
		try {
			parseNatsUrl('nats://hd:pa/ss@host:4222');
		} catch (error) {
			expect(JSON.stringify(error) + String(error)).not.toContain('pa/ss');
		}

		expect(() => connectOptionsFor('nats://hd:secret@host:4222', {urlFromArgv: true, env: {}})).toThrow(/holds a password/);
		expect(() => connectOptionsFor('nats://tok@host:4222', {urlFromArgv: true, env: {}})).toThrow(/holds a token/);
		expect(connectOptionsFor('nats://hd@host:4222', {urlFromArgv: true, env: {HERMES_DELEGATE_NATS_PASSWORD: 'x:y'}})).toMatchObject({servers: 'nats://host:4222', user: 'hd', pass: 'x:y'});
		expect(connectOptionsFor('nats://host:4222', {urlFromArgv: true, env: {HERMES_DELEGATE_NATS_TOKEN: 't'}})).toMatchObject({token: 't'});
		expect(connectOptionsFor('nats://hd:a:b@host:4222', {urlFromArgv: false, env: {}})).toMatchObject({user: 'hd', pass: 'a:b'});
	});
});

describe('reports held ahead of a gap', () => {
	it('are bounded: past the bound they are dropped and said once, and the order still holds for what comes', () => {
		const applied: number[] = [];
		const said: string[] = [];
		const order = new InOrder(report => applied.push(report.seq), why => said.push(why));
		const output = (seq: number): AttemptReport => ({v: messageVersion, seq, worker: 'wa', kind: 'output', stream: 'stdout', data: Buffer.from('x'.repeat(1000)).toString('base64')});
		for (let seq = 1; seq <= 5 * maxHeldReports; seq++) order.push(output(seq));
		expect(order.holding).toBe(maxHeldReports - 1);
		expect(said).toHaveLength(1);
		order.push(output(0));
		expect(applied).toEqual(Array.from({length: maxHeldReports}, (_, seq) => seq));
	});
});
