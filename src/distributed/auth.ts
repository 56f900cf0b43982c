// How a runner host or a worker proves itself to NATS, through NATS's own standard means only:
// user and password (or a token), the secret from a file or the environment and never from argv
// (every local user sees argv in ps; delegate.yaml's URL may still hold them), a credentials file
// (`--nats-creds FILE`, a decentralized-auth `.creds` with JWT and NKey seed), and TLS with a CA to
// trust (`--nats-tls-ca FILE`) and, for servers that ask for one, a client certificate
// (`--nats-tls-cert`, `--nats-tls-key`). The files are read here, on the host that uses them;
// nothing of them travels in a message.
import {readFileSync} from 'node:fs';
import {credsAuthenticator, type ConnectionOptions} from '@nats-io/transport-node';
import {InputError, messageOf} from '../core/errors.js';

export type NatsAuth = {
	credsFile?: string | undefined; tlsCa?: string | undefined; tlsCert?: string | undefined; tlsKey?: string | undefined;
	/** The URL came from argv (--nats), where every local user sees it (ps): no secret may be in it. */
	urlFromArgv?: boolean | undefined;
	/** Where the password or token is read from ($HERMES_DELEGATE_NATS_PASSWORD[_FILE], …_TOKEN[_FILE], …_USER). */
	env?: NodeJS.ProcessEnv | undefined;
};

export const natsSecretVariables = {user: 'HERMES_DELEGATE_NATS_USER', password: 'HERMES_DELEGATE_NATS_PASSWORD', token: 'HERMES_DELEGATE_NATS_TOKEN'} as const;

type ParsedUrl = {scheme: string; host: string; user?: string; password?: string};

const noSecretFix = `leave the password out of the URL (nats://USER@HOST:4222) and put it in a file named by $${natsSecretVariables.password}_FILE (or in $${natsSecretVariables.password}; a token: $${natsSecretVariables.token}_FILE or $${natsSecretVariables.token})`;

/**
 * A NATS URL read as RFC 3986 says: the authority ends at the first '/', '?' or '#'; userinfo is
 * what comes before its last '@'; the user ends at the first ':' (the password may hold more), and
 * both are percent-decoded. What it holds is never repeated in an error.
 */
export function parseNatsUrl(url: string): ParsedUrl {
	const match = /^([a-z][a-z\d+.-]*):\/\/([^/?#]*)([\s\S]*)$/i.exec(url.trim());
	if (!match) throw new InputError('--nats: not a NATS server URL', {}, 'write it as nats://HOST:4222 (tls://HOST:4222 for TLS)');
	const [, scheme, authority, rest] = match as unknown as [string, string, string, string];
	if (rest !== '' && rest !== '/') {
		throw new InputError(`--nats: a NATS URL has nothing after the host and port${authority.includes('@') || rest.includes('@') ? ' (a "/", "?" or "#" in a password ends the host part: write them %2F, %3F, %23)' : ''}`, {}, noSecretFix);
	}

	const at = authority.lastIndexOf('@');
	const host = authority.slice(at + 1);
	if (host === '') throw new InputError('--nats: the URL names no host', {}, 'write it as nats://HOST:4222');
	if (at < 0) return {scheme, host};
	const userInfo = authority.slice(0, at);
	const colon = userInfo.indexOf(':');
	try {
		return colon < 0
			? {scheme, host, user: decodeURIComponent(userInfo)}
			: {scheme, host, user: decodeURIComponent(userInfo.slice(0, colon)), password: decodeURIComponent(userInfo.slice(colon + 1))};
	} catch {
		throw new InputError('--nats: the user or password in the URL has a "%" that is not a percent-encoded byte', {}, `write a "%" as %25, or ${noSecretFix}`);
	}
}

/** The URL as it may be shown or logged: without user and password. */
export function shownUrl(url: string): string {
	try {
		const {scheme, host} = parseNatsUrl(url);
		return `${scheme}://${host}`;
	} catch {
		return '(the NATS URL, not shown: it does not parse)';
	}
}

function secretFrom(env: NodeJS.ProcessEnv, variable: string): string | undefined {
	const file = env[`${variable}_FILE`];
	if (file) return new TextDecoder().decode(readAuthFile(file, `$${variable}_FILE`, 'a file holding only the secret')).replace(/\r?\n$/, '');
	return env[variable] || undefined;
}

/** How to connect to `url`: the server without its user info; the user and password (or a token) from the URL or the environment. */
export function connectOptionsFor(url: string, auth: NatsAuth): Partial<ConnectionOptions> {
	const parsed = parseNatsUrl(url);
	const options: Partial<ConnectionOptions> = {servers: `${parsed.scheme}://${parsed.host}`};
	if (auth.urlFromArgv && (parsed.password !== undefined || (parsed.user !== undefined && auth.env?.[natsSecretVariables.password] === undefined && auth.env?.[`${natsSecretVariables.password}_FILE`] === undefined))) {
		// A lone userinfo is a token to NATS: a secret as much as a password is.
		throw new InputError(`--nats: the URL holds a ${parsed.password === undefined ? 'token (or a user without a password)' : 'password'}, which every user of this host can read in the process list (ps)`, {}, noSecretFix);
	}

	const env = auth.env ?? {};
	const user = parsed.user ?? (env[natsSecretVariables.user] || undefined);
	const password = parsed.password ?? secretFrom(env, natsSecretVariables.password);
	const token = secretFrom(env, natsSecretVariables.token);
	if (user !== undefined && password !== undefined) Object.assign(options, {user, pass: password});
	else if (user !== undefined && parsed.password === undefined && password === undefined && token === undefined) options.token = user; // nats://TOKEN@HOST, from a file (delegate.yaml) only
	else if (token !== undefined) options.token = token;
	else if (password !== undefined) throw new InputError(`$${natsSecretVariables.password} is set, but no user goes with it`, {}, `name the user in the URL (nats://USER@HOST:4222) or in $${natsSecretVariables.user}`);

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
