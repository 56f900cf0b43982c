// A client that speaks the host's protocol by hand: it writes whatever a test gives it (valid or
// not) and records every line the host sent and when the host closed the connection.
import net from 'node:net';
import {waitFor} from './wait-for.js';

export type RawClient = {
	socket: net.Socket;
	messages: Array<{type: string; [key: string]: unknown}>;
	/** The byte length of each line, in the order of messages. */
	lineBytes: number[];
	closed(): boolean;
	send(text: string): void;
	/** Waits until a message of this type (and matching `where`) has come. */
	until(type: string, where?: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
	untilClosed(): Promise<void>;
};

export async function rawClient(socketPath: string): Promise<RawClient> {
	const socket = net.connect(socketPath);
	const messages: RawClient['messages'] = [];
	const lineBytes: number[] = [];
	let isClosed = false;
	let partial = '';
	socket.setEncoding('utf8');
	socket.on('data', (chunk: string) => {
		const lines = (partial + chunk).split('\n');
		partial = lines.pop() ?? '';
		for (const line of lines) {
			messages.push(JSON.parse(line) as RawClient['messages'][number]);
			lineBytes.push(Buffer.byteLength(line) + 1);
		}
	});
	socket.on('error', () => undefined);
	socket.on('close', () => {
		isClosed = true;
	});
	await new Promise<void>((resolve, reject) => {
		socket.once('connect', resolve);
		socket.once('error', reject);
	});
	const find = (type: string, where?: (message: Record<string, unknown>) => boolean) => messages.find(message => message.type === type && (where?.(message) ?? true));
	return {
		socket,
		messages,
		lineBytes,
		closed: () => isClosed,
		send: text => socket.write(text),
		async until(type, where) {
			await waitFor(() => find(type, where) !== undefined || isClosed, {message: `a ${type} message`});
			const found = find(type, where);
			if (!found) throw new Error(`the host closed the connection before a ${type} message; it sent: ${JSON.stringify(messages.map(message => message.type))}`);
			return found;
		},
		async untilClosed() {
			await waitFor(() => isClosed, {message: 'the host to close the connection'});
		},
	};
}
