// Agents that print a line at a time cost a wake-up of this process per line: 32 agents at 20
// lines/s are 640 wake-ups, reads, log writes and 'data' events a second, most of the runner
// host's CPU in a trickle (bench/RESULTS.md, "the runner host in the trickle"). So after a small
// read a pipe is not read again at once: it is held (its handle stops reading, the kernel keeps
// what the agent prints) until the next release, and then whatever came meanwhile is one read.
// Releases: before each push to the dashboards (host/server.ts), so a held line still reaches
// the screen with the push it would have made; when the agent exits, so that the end of its
// output is read as soon as it was before; and at the latest holdMs after the hold began.
// A big read (a flood) is never held: reading as fast as the agent prints comes first.
//
// Node has no public way to stop reading a socket (pause() keeps reading into the stream's buffer
// up to its high-water mark): the stream's handle is stopped and started directly, keeping the
// handle's `reading` flag as Node's own net.Socket sets it, so that Node never sees a difference.
// Where a stream has no such handle, nothing is held (read-hold.test.ts checks that it has).
import type {Readable} from 'node:stream';

/** A read this small (bytes) drained a pipe of an agent printing a little at a time: hold the next. */
export const smallReadBytes = 16 * 1024;

/** The longest a pipe is held when no push releases it first (nobody attached, a headless run). */
export const holdMs = 100;

/** What net.Socket keeps of its libuv stream: `reading` is true while Node wants data. */
type StreamHandle = {reading?: unknown; readStop?: unknown; readStart?: unknown};

type Held = {source: Readable; handle: StreamHandle & {readStart(): number}};

const held = new Map<Readable, Held>();
let timer: NodeJS.Timeout | undefined;

function handleOf(source: Readable): (StreamHandle & {readStop(): number; readStart(): number}) | undefined {
	const handle = (source as unknown as {_handle?: StreamHandle | null})._handle;
	if (!handle || typeof handle.readStop !== 'function' || typeof handle.readStart !== 'function' || typeof handle.reading !== 'boolean') return undefined;
	return handle as StreamHandle & {readStop(): number; readStart(): number};
}

/** After a read of `bytes` from `source`: holds its next read when this one was small. */
export function holdAfterRead(source: Readable, bytes: number): void {
	if (bytes >= smallReadBytes || held.has(source) || source.destroyed) return;
	const handle = handleOf(source);
	// Not reading: Node stopped it itself (its buffer is full), and starts it again itself.
	if (handle?.reading !== true || handle.readStop() !== 0) return;
	held.set(source, {source, handle});
	// Kept referenced: a held pipe's handle no longer keeps the event loop alive, this timer does.
	timer ??= setTimeout(releaseHeldReads, holdMs);
}

/** Reads every held pipe again (in the event loop's next poll for I/O). */
export function releaseHeldReads(): void {
	clearTimeout(timer);
	timer = undefined;
	const all = [...held.values()];
	held.clear();
	for (const entry of all) start(entry);
}

/** Reads these pipes again now, if held (their agent exited: their end is read without delay). */
export function releaseReads(...sources: Readable[]): void {
	for (const source of sources) {
		const entry = held.get(source);
		if (!entry) continue;
		held.delete(source);
		start(entry);
	}

	if (held.size === 0) {
		clearTimeout(timer);
		timer = undefined;
	}
}

/** Whether `source` is held now (for tests). */
export function isHeld(source: Readable): boolean {
	return held.has(source);
}

function start({source, handle}: Held): void {
	// Destroyed meanwhile (its handle closed), or stopped by Node since (its buffer full): Node decides.
	if (source.destroyed || handleOf(source) !== handle || handle.reading !== true) return;
	// Never seen (the handle is open and Node wants data): a pipe that cannot be read again ends,
	// as Node ends one whose read fails, but without an 'error' nobody may be listening for.
	if (handle.readStart() !== 0) source.destroy();
}
