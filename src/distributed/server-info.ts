// Why a connection to NATS failed, when the client library only says "timeout": a server whose TLS
// verifies clients (`verify: true`) drops a client without a certificate during the handshake, and
// the client sees nothing but the wait. NATS servers greet every connection with an INFO line in
// plain text (before any TLS) saying what they require, so one look at it names the missing piece.
import {connect} from 'node:net';

/** What a NATS server's INFO says it asks of a client (the fields we explain). */
export type ServerDemands = {tlsRequired: boolean; tlsVerify: boolean; authRequired: boolean};

/** The greeting of the server at `url` (nats://HOST:PORT), or undefined if none came within `timeoutMs`. */
export async function serverDemands(url: string, timeoutMs = 2000): Promise<ServerDemands | undefined> {
	let target: URL;
	try {
		target = new URL(url.replace(/^(nats|tls):/i, 'http:'));
	} catch {
		return undefined;
	}

	return new Promise(resolve => {
		const socket = connect(Number(target.port || 4222), target.hostname.replace(/^\[|\]$/g, ''));
		let text = '';
		const done = (demands: ServerDemands | undefined) => {
			clearTimeout(timer);
			socket.destroy();
			resolve(demands);
		};

		const timer = setTimeout(() => done(undefined), timeoutMs);
		socket.on('error', () => done(undefined));
		socket.on('data', (chunk: Buffer) => {
			text += chunk.toString('latin1');
			const line = /^INFO\s+(\{.*\})[ \t]*\r?\n/.exec(text);
			if (line) done(parseInfo(line[1]!));
			else if (text.length > 64 * 1024 || text.includes('\n')) done(undefined);
		});
	});
}

function parseInfo(json: string): ServerDemands | undefined {
	try {
		const info = JSON.parse(json) as Record<string, unknown>;
		return {tlsRequired: info['tls_required'] === true, tlsVerify: info['tls_verify'] === true, authRequired: info['auth_required'] === true};
	} catch {
		return undefined;
	}
}
