// A nats-server in operator mode (decentralized auth) for tests of --nats-creds: an operator, an
// account with JetStream, a system account, and a user of the account whose credentials file the
// test hands to hermes-delegate. The JWTs are signed here with NATS's own nkeys (no nsc needed):
// header and claims in base64url, signed by the issuer's key, as NATS's JWT format has them.
import {createHash} from 'node:crypto';
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {nkeys} from '@nats-io/transport-node';

type KeyPair = ReturnType<typeof nkeys.createOperator>;

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function signedJwt(issuer: KeyPair, subject: KeyPair, name: string, nats: Record<string, unknown>): string {
	const header = base64url({typ: 'JWT', alg: 'ed25519-nkey'});
	const claims: Record<string, unknown> = {iat: Math.floor(Date.now() / 1000), iss: issuer.getPublicKey(), sub: subject.getPublicKey(), name, nats: {...nats, version: 2}};
	claims['jti'] = createHash('sha256').update(JSON.stringify(claims)).digest('base64url');
	const payload = base64url(claims);
	const signature = Buffer.from(issuer.sign(new TextEncoder().encode(`${header}.${payload}`))).toString('base64url');
	return `${header}.${payload}.${signature}`;
}

const unlimited = {subs: -1, data: -1, payload: -1, imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1};

/** Writes server.conf (for `nats-server -c`) and user.creds into `dir`. */
export function operatorMode(dir: string): {config: string; creds: string} {
	const operator = nkeys.createOperator();
	const account = nkeys.createAccount();
	const system = nkeys.createAccount();
	const user = nkeys.createUser();
	const accountJwt = signedJwt(operator, account, 'hd', {type: 'account', limits: {...unlimited, mem_storage: -1, disk_storage: -1, streams: -1, consumer: -1}});
	const systemJwt = signedJwt(operator, system, 'SYS', {type: 'account', limits: unlimited});
	const config = path.join(dir, 'operator.conf');
	writeFileSync(config, [
		`operator: ${signedJwt(operator, operator, 'test operator', {type: 'operator'})}`,
		`system_account: ${system.getPublicKey()}`,
		'resolver: MEMORY',
		`resolver_preload: {\n  ${account.getPublicKey()}: ${accountJwt}\n  ${system.getPublicKey()}: ${systemJwt}\n}`,
		'',
	].join('\n'));
	const creds = path.join(dir, 'user.creds');
	const userJwt = signedJwt(account, user, 'hd-user', {type: 'user', pub: {}, sub: {}, subs: -1, data: -1, payload: -1});
	writeFileSync(creds, `-----BEGIN NATS USER JWT-----\n${userJwt}\n------END NATS USER JWT------\n\n-----BEGIN USER NKEY SEED-----\n${new TextDecoder().decode(user.getSeed())}\n------END USER NKEY SEED------\n`, {mode: 0o600});
	return {config, creds};
}
