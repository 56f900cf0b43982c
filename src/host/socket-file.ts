// The socket file's place and permissions: it is served only from a folder that is ours and
// closed to everyone else (0700), it is made 0600, and a socket file left by a host that died is
// replaced only once nobody answers on it (never a live host's, never a file that is no socket).
import {chmod, lstat, unlink} from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

/** Why serving at socketPath must not happen, or undefined when its folder is safe. */
export async function unsafeFolder(socketPath: string): Promise<string | undefined> {
	const folder = path.dirname(socketPath);
	const stats = await lstat(folder).catch(() => undefined);
	if (!stats?.isDirectory()) {
		return `${folder} is not a folder`;
	}

	const uid = process.getuid?.();
	if (uid !== undefined && stats.uid !== uid) {
		return `${folder} belongs to uid ${stats.uid}, not to us (uid ${uid})`;
	}

	if ((stats.mode & 0o077) !== 0) {
		return `${folder} is open to others (mode ${(stats.mode & 0o777).toString(8)}); a run folder is 0700`;
	}

	return undefined;
}

/** Whether a host answers on the socket file. */
async function answers(socketPath: string): Promise<boolean> {
	return new Promise(resolve => {
		const probe = net.connect(socketPath);
		probe.once('connect', () => {
			probe.destroy();
			resolve(true);
		});
		probe.once('error', () => resolve(false));
	});
}

/** Clears the way for a new socket file: nothing there, or a dead host's socket (removed). */
export async function clearStaleSocket(socketPath: string): Promise<void> {
	const stats = await lstat(socketPath).catch(() => undefined);
	if (!stats) {
		return;
	}

	if (!stats.isSocket()) {
		throw new Error(`${socketPath} exists and is not a socket; not replacing it`);
	}

	if (await answers(socketPath)) {
		throw new Error(`a runner host already serves ${socketPath}`);
	}

	await unlink(socketPath);
}

/** Listens on socketPath and makes the file 0600 (the 0700 folder keeps others out until then). */
export async function listenPrivately(server: net.Server, socketPath: string): Promise<void> {
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(socketPath, () => {
			server.off('error', reject);
			resolve();
		});
	});
	await chmod(socketPath, 0o600);
}
