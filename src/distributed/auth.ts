// How a runner host or a worker proves itself to NATS, through NATS's own standard means only:
// user and password (or a token) in the URL (`nats://USER:PASS@HOST:4222`), a credentials file
// (`--nats-creds FILE`, a decentralized-auth `.creds` with JWT and NKey seed), and TLS with a CA to
// trust (`--nats-tls-ca FILE`) and, for servers that ask for one, a client certificate
// (`--nats-tls-cert`, `--nats-tls-key`). The files are read here, on the host that uses them;
// nothing of them travels in a message.
import {readFileSync} from 'node:fs';
import {credsAuthenticator, type ConnectionOptions} from '@nats-io/transport-node';
import {InputError, messageOf} from '../core/errors.js';

export type NatsAuth = {credsFile?: string | undefined; tlsCa?: string | undefined; tlsCert?: string | undefined; tlsKey?: string | undefined};

/** The URL as it may be shown or logged: a user and password in it are left out. */
export function shownUrl(url: string): string {
	return url.replace(/^([a-z]+:\/\/)[^@/]*@/i, '$1');
}

/** How to connect to `url`: the server without its user info, which becomes the user and password (or a token). */
export function connectOptionsFor(url: string, auth: NatsAuth): Partial<ConnectionOptions> {
	const options: Partial<ConnectionOptions> = {servers: shownUrl(url)};
	const userInfo = /^[a-z]+:\/\/([^@/]*)@/i.exec(url)?.[1];
	if (userInfo !== undefined) {
		const [user = '', pass] = userInfo.split(':', 2).map(part => decodeURIComponent(part));
		if (pass === undefined) options.token = user;
		else Object.assign(options, {user, pass});
	}

	if (auth.credsFile !== undefined) {
		const creds = readAuthFile(auth.credsFile, '--nats-creds', 'a NATS credentials file (.creds, as `nsc generate creds` writes it)');
		options.authenticator = credsAuthenticator(creds);
	}

	if ((auth.tlsCert === undefined) !== (auth.tlsKey === undefined)) {
		throw new InputError('--nats-tls-cert and --nats-tls-key go together', {}, 'pass both (the client certificate and its key), or neither');
	}

	if (auth.tlsCa !== undefined || auth.tlsCert !== undefined) {
		for (const [file, flag] of [[auth.tlsCa, '--nats-tls-ca'], [auth.tlsCert, '--nats-tls-cert'], [auth.tlsKey, '--nats-tls-key']] as const) {
			if (file !== undefined) readAuthFile(file, flag, 'a PEM file');
		}

		options.tls = {...(auth.tlsCa === undefined ? {} : {caFile: auth.tlsCa}), ...(auth.tlsCert === undefined ? {} : {certFile: auth.tlsCert, keyFile: auth.tlsKey})};
	}

	return options;
}

function readAuthFile(file: string, flag: string, what: string): Uint8Array {
	try {
		return readFileSync(file);
	} catch (error) {
		throw new InputError(`${flag} ${file}: cannot read it (${messageOf(error)})`, {}, `pass ${what} this user can read`);
	}
}
