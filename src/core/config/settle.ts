// A config.yaml another program is still writing (`cat > config.yaml`, a script, an editor that
// saves in place) can be read half-way, and half a YAML file is usually valid YAML: `config route`
// saved the first half plus its edit and the rest was lost; the watcher re-planned from it (issue
// 36, item 10). So before a save builds on the file, or the watcher re-plans from it, the file must
// have settled: no process holds it open for writing (seen in /proc/<pid>/fd and fdinfo), and two
// reads around that look give the same text. A file that does not settle within a few seconds is
// refused with the writer named, never taken as whole.
import {readdirSync, readFileSync, readlinkSync, realpathSync} from 'node:fs';
import {processName} from '../process/proc-tree.js';

export type Writer = {pid: number; name: string};

/** Processes that hold `file` open for writing (the ones /proc lets us see: ours, or all as root). */
export function writersOf(file: string): Writer[] {
	let target: string;
	let pids: string[];
	try {
		target = realpathSync(file);
		pids = readdirSync('/proc').filter(name => /^\d+$/.test(name));
	} catch {
		return []; // No file (nothing to wait for), or no /proc: only the text comparison applies.
	}

	const writers: Writer[] = [];
	for (const pid of pids) {
		let fds: string[];
		try {
			fds = readdirSync(`/proc/${pid}/fd`);
		} catch {
			continue; // Gone, or not ours to look at.
		}

		for (const fd of fds) {
			try {
				if (readlinkSync(`/proc/${pid}/fd/${fd}`) !== target) continue;
				// flags are octal; the access mode is the low two bits: 1 write-only, 2 read-write.
				const flags = /^flags:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'))?.[1];
				if (flags !== undefined && (Number.parseInt(flags, 8) & 0o3) !== 0) {
					writers.push({pid: Number(pid), name: processName(Number(pid))});
					break;
				}
			} catch {}
		}
	}

	return writers.filter(writer => writer.pid !== process.pid);
}

export type Settled<T> = {ok: true; value: T} | {ok: false; why: string};

const pauseMs = 50;
const patienceMs = 5000;

function pause(ms: number): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * `read()` once the file has settled (see above): read, look for writers, read again; the same
 * text twice with no writer between is the file as a whole. Waits up to `patience` ms for a writer
 * to finish; `equal` compares two reads.
 */
export function readSettled<T>(file: string, read: () => T, options: {patience?: number; equal?: (a: T, b: T) => boolean} = {}): Settled<T> {
	const equal = options.equal ?? ((a, b) => a === b);
	const deadline = Date.now() + (options.patience ?? patienceMs);
	let why = '';
	for (;;) {
		const first = read();
		const writers = writersOf(file);
		const second = read();
		if (writers.length === 0 && equal(first, second)) return {ok: true, value: second};
		why = writers.length > 0
			? `${writers.map(writer => `${writer.name} (pid ${writer.pid})`).join(', ')} ${writers.length === 1 ? 'has' : 'have'} it open for writing`
			: 'it changed while it was being read';
		if (Date.now() >= deadline) return {ok: false, why};
		pause(pauseMs);
	}
}
