// NATS's own ways of proving who connects, on both ends: a server that asks for a user and password
// (in the URL), one in operator mode that takes a credentials file (--nats-creds), one that
// speaks only TLS (--nats-tls-ca), and one that also asks for a client certificate
// (--nats-tls-cert/--nats-tls-key). Configs and certificates (openssl) are written
// by the test; the password never shows in what hermes-delegate prints.
import {execFileSync} from 'node:child_process';
import {existsSync, readdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {afterEach, describe, expect, it} from 'vitest';
import {cliPath} from '../helpers/run-cli.js';
import {fakeAgentPath} from '../helpers/processes.js';
import {natsServerPath, natsSkipReason, scratchDir, startNatsServer, startWorker, stopFleet, workerFleetEnv} from '../helpers/nats-fleet.js';
import type {BatchReport} from '../../src/core/types.js';
import {operatorMode} from '../helpers/nats-creds.js';

if (!natsServerPath) console.log(natsSkipReason);
const opensslPath = ['/usr/bin/openssl', '/usr/local/bin/openssl', '/bin/openssl'].find(file => existsSync(file));
if (natsServerPath && !opensslPath) console.log('openssl is not installed (apt-get install openssl): the TLS tests are skipped, since they make their certificates with it');
afterEach(stopFleet);

function runBatch(url: string, flags: string[] = [], env: Record<string, string> = {}) {
	return execa(process.execPath, [cliPath, 'run', '--nats', url, ...flags, JSON.stringify([{goal: 'hello [fake:duration=0.1] [fake:answer=hi]'}])], {env: {...process.env, HERMES_HOME: scratchDir('hd-runner-'), ...env}, reject: false});
}

function lonelyWorker(url: string, flags: string[] = []) {
	return execa(process.execPath, [cliPath, 'worker', '--nats', url, '--name', 'lonely', '--hermes-bin', fakeAgentPath, ...flags], {env: {...process.env, HERMES_HOME: scratchDir('hd-lonely-'), ...workerFleetEnv('lonely')}, reject: false, timeout: 20_000});
}

/**
 * A throwaway CA, a server certificate it signed for 127.0.0.1, and a client certificate it signed
 * (for a server that asks for one: `verify: true`), made with openssl.
 */
function certificates(dir: string): {ca: string; cert: string; key: string; clientCert: string; clientKey: string} {
	const file = (name: string) => path.join(dir, name);
	const openssl = (...args: string[]) => execFileSync(opensslPath!, args, {stdio: 'ignore'});
	openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=hd test CA', '-keyout', file('ca.key'), '-out', file('ca.pem'));
	const signed = (name: string, subject: string, extensions: string) => {
		openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', subject, '-keyout', file(`${name}.key`), '-out', file(`${name}.csr`));
		writeFileSync(file(`${name}.ext`), extensions);
		openssl('x509', '-req', '-in', file(`${name}.csr`), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-days', '2', '-extfile', file(`${name}.ext`), '-out', file(`${name}.pem`));
	};

	signed('server', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
	signed('client', '/CN=hd worker', 'extendedKeyUsage=clientAuth\n');
	return {ca: file('ca.pem'), cert: file('server.pem'), key: file('server.key'), clientCert: file('client.pem'), clientKey: file('client.key')};
}

describe.skipIf(!natsServerPath)('NATS auth', () => {
	it('a server that asks for a user and password: the password from a file or the environment, never argv; read as RFC 3986 says (":" and "/" in it); never printed', async () => {
		const dir = scratchDir('hd-auth-');
		const config = path.join(dir, 'server.conf');
		const password = 's3:cr/et@pw%';
		writeFileSync(config, `authorization {\n  user: hd\n  password: "${password}"\n}\n`);
		const server = await startNatsServer({extraArgs: ['-c', config]});
		const passwordFile = path.join(dir, 'password');
		writeFileSync(passwordFile, `${password}\n`, {mode: 0o600});
		const withUser = server.url.replace('nats://', 'nats://hd@');

		const refused = await lonelyWorker(server.url);
		expect(refused.exitCode).toBe(2);
		expect(refused.stderr).toMatch(/cannot reach NATS at nats:\/\/127\.0\.0\.1:\d+: .*[Aa]uthorization/);
		// In argv every local user reads it (ps): refused before anything connects, without repeating it.
		const inArgv = await lonelyWorker(server.url.replace('nats://', `nats://hd:${encodeURIComponent(password)}@`));
		expect(inArgv.exitCode).toBe(2);
		expect(inArgv.stderr).toMatch(/--nats: the URL holds a password, which every user of this host can read in the process list \(ps\)\n {2}fix: leave the password out of the URL .*HERMES_DELEGATE_NATS_PASSWORD_FILE/);
		// A "/" written as it is ends the host part: said without the password.
		const torn = await lonelyWorker(server.url.replace('nats://', `nats://hd:${password}@`));
		expect(torn.exitCode).toBe(2);
		expect(torn.stderr).toMatch(/a "\/", "\?" or "#" in a password ends the host part/);

		const worker = await startWorker(withUser, 'wa', {env: {HERMES_DELEGATE_NATS_PASSWORD_FILE: passwordFile}});
		const unauthorised = await runBatch(server.url);
		expect(unauthorised.exitCode).toBe(2);
		const run = await runBatch(withUser, [], {HERMES_DELEGATE_NATS_PASSWORD: password});
		expect(run.exitCode, run.stderr).toBe(0);
		expect((JSON.parse(run.stdout) as BatchReport).results[0]).toMatchObject({status: 'succeeded', answer: 'hi', host: 'wa'});
		expect(run.stderr).toMatch(/nats: 1 live worker: wa/);
		// delegate.yaml is no process list: the URL there may hold it, percent-encoded (":" stays as it is).
		const home = scratchDir('hd-runner-');
		writeFileSync(path.join(home, 'delegate.yaml'), `executor:\n  nats: "${server.url.replace('nats://', `nats://hd:${password.replaceAll('%', '%25').replaceAll('/', '%2F').replaceAll('@', '%40')}@`)}"\n`);
		const configured = await execa(process.execPath, [cliPath, 'run', JSON.stringify([{goal: 'hello [fake:duration=0.1] [fake:answer=hi]'}])], {env: {...process.env, HERMES_HOME: home}, reject: false});
		expect(configured.exitCode, configured.stderr).toBe(0);
		for (const text of [run.stdout, run.stderr, worker.log.text, refused.stderr, inArgv.stderr, torn.stderr, configured.stderr]) {
			expect(text).not.toContain('s3:cr');
			expect(text).not.toContain('s3%3Acr');
		}
	}, 60_000);

	it.skipIf(!opensslPath)('a server that speaks only TLS: --nats-tls-ca on both ends; without it nothing connects (exit 2)', async () => {
		const dir = scratchDir('hd-tls-');
		const {ca, cert, key} = certificates(dir);
		const config = path.join(dir, 'server.conf');
		writeFileSync(config, `tls {\n  cert_file: "${cert}"\n  key_file: "${key}"\n}\n`);
		const server = await startNatsServer({extraArgs: ['-c', config]});

		const refused = await lonelyWorker(server.url);
		expect(refused.exitCode).toBe(2);
		expect(refused.stderr).toMatch(/cannot reach NATS at nats:\/\/127\.0\.0\.1:\d+/);
		await startWorker(server.url, 'wa', {args: ['--nats-tls-ca', ca]});
		const run = await runBatch(server.url, ['--nats-tls-ca', ca]);
		expect(run.exitCode, run.stderr).toBe(0);
		expect((JSON.parse(run.stdout) as BatchReport).results[0]).toMatchObject({status: 'succeeded', host: 'wa'});
		expect((await runBatch(server.url)).exitCode).toBe(2);
	}, 60_000);

	it.skipIf(!opensslPath)('a server that asks for a client certificate (TLS verify): worker and batch connect with --nats-tls-cert/--nats-tls-key; without them exit 2 naming the flags, nothing started', async () => {
		const dir = scratchDir('hd-mtls-');
		const {ca, cert, key, clientCert, clientKey} = certificates(dir);
		const config = path.join(dir, 'server.conf');
		writeFileSync(config, `tls {\n  cert_file: "${cert}"\n  key_file: "${key}"\n  ca_file: "${ca}"\n  verify: true\n}\n`);
		const server = await startNatsServer({extraArgs: ['-c', config]});
		const withCert = ['--nats-tls-ca', ca, '--nats-tls-cert', clientCert, '--nats-tls-key', clientKey];

		// The CA alone is not enough: the server wants to see who connects.
		const refused = await lonelyWorker(server.url, ['--nats-tls-ca', ca]);
		expect(refused.exitCode).toBe(2);
		expect(refused.stderr).toMatch(/cannot reach NATS at nats:\/\/127\.0\.0\.1:\d+/);
		expect(refused.stderr).toMatch(/the server asks every client for a TLS client certificate \(its tls block has verify: true\), and none was given\n {2}fix: pass --nats-tls-cert FILE and --nats-tls-key FILE/);

		const worker = await startWorker(server.url, 'wa', {args: withCert});
		const home = scratchDir('hd-runner-');
		const noCert = await execa(process.execPath, [cliPath, 'run', '--nats', server.url, '--nats-tls-ca', ca, JSON.stringify([{goal: 'hello [fake:duration=0.1]'}])], {env: {...process.env, HERMES_HOME: home}, reject: false});
		expect(noCert.exitCode).toBe(2);
		expect(noCert.stderr).toMatch(/asks every client for a TLS client certificate.*\n {2}fix: pass --nats-tls-cert FILE and --nats-tls-key FILE/);
		// Nothing started: no run folder, and the worker was offered nothing.
		expect(existsSync(path.join(home, 'delegate', 'runs')) ? readdirSync(path.join(home, 'delegate', 'runs')).filter(run => !run.startsWith('.')) : []).toEqual([]);
		expect(worker.log.text).not.toMatch(/running task/);

		// A client certificate from a CA the server does not trust: refused, saying which file.
		const stranger = certificates(scratchDir('hd-mtls-other-'));
		const untrusted = await lonelyWorker(server.url, ['--nats-tls-ca', ca, '--nats-tls-cert', stranger.clientCert, '--nats-tls-key', stranger.clientKey]);
		expect(untrusted.exitCode).toBe(2);
		expect(untrusted.stderr).toContain(`the server asks for a TLS client certificate and did not take ${stranger.clientCert}`);

		const run = await runBatch(server.url, withCert);
		expect(run.exitCode, run.stderr).toBe(0);
		expect((JSON.parse(run.stdout) as BatchReport).results[0]).toMatchObject({status: 'succeeded', answer: 'hi', host: 'wa'});
	}, 90_000);

	it('a server in operator mode: --nats-creds on both ends (a user of an account with JetStream); without it nothing connects (exit 2)', async () => {
		const {config, creds} = operatorMode(scratchDir('hd-operator-'));
		const server = await startNatsServer({extraArgs: ['-c', config]});
		const refused = await lonelyWorker(server.url);
		expect(refused.exitCode).toBe(2);
		expect(refused.stderr).toMatch(/cannot reach NATS at nats:\/\/127\.0\.0\.1:\d+: .*[Aa]uthorization/);
		await startWorker(server.url, 'wa', {args: ['--nats-creds', creds]});
		const run = await runBatch(server.url, ['--nats-creds', creds]);
		expect(run.exitCode, run.stderr).toBe(0);
		expect((JSON.parse(run.stdout) as BatchReport).results[0]).toMatchObject({status: 'succeeded', answer: 'hi', host: 'wa'});
		expect((await runBatch(server.url)).exitCode).toBe(2);
		// delegate.yaml's executor carries the file as --nats-creds does.
		const home = scratchDir('hd-runner-');
		writeFileSync(path.join(home, 'delegate.yaml'), `executor:\n  nats: ${server.url}\n  creds: ${creds}\n`);
		const configured = await execa(process.execPath, [cliPath, 'run', JSON.stringify([{goal: 'hello [fake:duration=0.1] [fake:answer=hi]'}])], {env: {...process.env, HERMES_HOME: home}, reject: false});
		expect(configured.exitCode, configured.stderr).toBe(0);
	}, 60_000);

	it('a credentials file that cannot be read, or a client certificate without its key, is bad input naming the flag (exit 2)', async () => {
		const {url} = await startNatsServer();
		const missing = await runBatch(url, ['--nats-creds', '/nonexistent/hd.creds']);
		expect(missing.exitCode).toBe(2);
		expect(missing.stderr).toMatch(/--nats-creds \/nonexistent\/hd\.creds: cannot read it .*\n {2}fix: pass a NATS credentials file/);
		const half = await lonelyWorker(url, ['--nats-tls-cert', '/nonexistent/cert.pem']);
		expect(half.exitCode).toBe(2);
		expect(half.stderr).toMatch(/--nats-tls-cert and --nats-tls-key go together/);
	}, 30_000);
});
