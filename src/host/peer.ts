// Who is on the other end of an accepted Unix socket. Node has no SO_PEERCRED, so on Linux the
// kernel is asked the same question another way (docs/protocol.md, "Security"):
//   1. our end's inode: /proc/self/fd/<fd> of the accepted socket reads `socket:[INODE]`;
//   2. the peer's end: `ss -xpn` (sock_diag) lists every Unix socket with its peer's inode and the
//      processes holding it; the row whose peer is our inode is the client's end, with its pids;
//   3. each pid's /proc/<pid>/status gives its uids.
// A peer whose uid cannot be established this way (no /proc, no ss, a process we may not see) is
// refused: the check fails closed.
import {execFile} from 'node:child_process';
import {readFile, readlink} from 'node:fs/promises';
import type {Socket} from 'node:net';

export type PeerCheck = {ok: true; uid: number; pids: number[]} | {ok: false; reason: string};

/** The accepted socket's file descriptor (Node keeps it on the handle; it has no public accessor). */
function descriptorOf(socket: Socket): number | undefined {
	const handle = (socket as unknown as {_handle?: {fd?: unknown}})._handle;
	return typeof handle?.fd === 'number' && handle.fd >= 0 ? handle.fd : undefined;
}

async function socketInode(fd: number): Promise<string | undefined> {
	const link = await readlink(`/proc/self/fd/${fd}`).catch(() => undefined);
	return /^socket:\[(\d+)]$/.exec(link ?? '')?.[1];
}

async function socketTable(): Promise<string> {
	return new Promise((resolve, reject) => {
		execFile('ss', ['-xpnH'], {maxBuffer: 64 * 1024 * 1024, timeout: 5000}, (error, stdout) => {
			if (error) reject(error);
			else resolve(stdout);
		});
	});
}

/** The pids holding the socket whose peer is `inode`, from `ss -xpnH` rows (`… LOCAL_INODE PEER_ADDR PEER_INODE users:((…,pid=N,fd=M)…)`). */
export function peerPids(table: string, inode: string): number[] | undefined {
	for (const row of table.split('\n')) {
		const match = /\s(\d+)\s+\S+\s+(\d+)\s+users:\((.*)\)\s*$/.exec(row);
		if (match?.[2] === inode) {
			return [...match[3]!.matchAll(/pid=(\d+)/g)].map(found => Number(found[1]));
		}
	}

	return undefined;
}

/** Real and effective uid of a process, from /proc/<pid>/status (`Uid: real effective saved fs`). */
async function uidsOf(pid: number): Promise<number[] | undefined> {
	const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
	const line = /^Uid:\s+(\d+)\s+(\d+)/m.exec(status ?? '');
	return line ? [Number(line[1]), Number(line[2])] : undefined;
}

/** Whether the peer of `socket` runs as `uid` (default: ours), every process holding its end. */
export async function checkPeer(socket: Socket, uid = process.getuid?.()): Promise<PeerCheck> {
	if (process.platform !== 'linux' || uid === undefined) {
		return {ok: false, reason: `the peer's uid cannot be established on ${process.platform} (only Linux is supported)`};
	}

	const fd = descriptorOf(socket);
	const inode = fd === undefined ? undefined : await socketInode(fd);
	if (inode === undefined) {
		return {ok: false, reason: 'the accepted socket has no inode in /proc/self/fd'};
	}

	let table: string;
	try {
		table = await socketTable();
	} catch (error) {
		return {ok: false, reason: `ss -xpn could not list the sockets (${(error as Error).message})`};
	}

	const pids = peerPids(table, inode);
	if (pids === undefined || pids.length === 0) {
		return {ok: false, reason: `no process we may see holds the peer of socket ${inode} (another user's, or it has gone)`};
	}

	for (const pid of pids) {
		const uids = await uidsOf(pid);
		if (uids === undefined) {
			return {ok: false, reason: `pid ${pid} (the peer) has no readable /proc status`};
		}

		if (uids.some(found => found !== uid)) {
			return {ok: false, reason: `pid ${pid} (the peer) runs as uid ${uids.join('/')}, not ${uid}`};
		}
	}

	return {ok: true, uid, pids};
}
