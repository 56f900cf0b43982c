// What the suite reads about a process: CPU seconds and memory from /proc, the same way for a
// Node dashboard and a Rust one, so that the figures compare.
import {execFileSync} from 'node:child_process';
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], {encoding: 'utf8'}).trim()) || 100;

export const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

/** User + system CPU seconds of the process itself (its threads included, its children not). */
export function cpuSeconds(pid) {
	const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
	const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
	// utime and stime are fields 14 and 15 of proc(5); the slice starts at field 3.
	return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

/** A field of /proc/<pid>/status in MiB: VmRSS now, VmHWM the peak so far. */
export function statusMiB(pid, key) {
	const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
	return match ? Number(match[1]) / 1024 : 0;
}

/** CPU seconds of several processes, added up (each read once; one already gone counts 0). */
export function cpuSecondsOf(pids) {
	let sum = 0;
	for (const pid of pids) {
		try {
			sum += cpuSeconds(pid);
		} catch {
			// gone: whatever it used is no longer readable
		}
	}

	return sum;
}

/** The status field of each process in MiB, and their sum ({sum, parts}). */
export function statusMiBOf(pids, key) {
	const parts = pids.map(pid => {
		try {
			return statusMiB(pid, key);
		} catch {
			return 0;
		}
	});
	return {sum: parts.reduce((a, b) => a + b, 0), parts};
}

/**
 * The process's proportional set size in MiB (/proc/<pid>/smaps_rollup): each page it maps counts
 * divided by the number of processes that map it, so pages shared by the dashboard and its host
 * (the node binary, its libraries) count once between them, where their RSS counts them twice.
 * Pages shared with any other process (the suite's own node runs the same binary) are split with
 * it too: a lower bound of what the processes cost alone. undefined: not readable (gone, or a
 * kernel before 4.14).
 */
export function pssMiB(pid) {
	try {
		const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
		return match ? Number(match[1]) / 1024 : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The peak Pss of each process, sampled every `everyMs` from now until stop(), which samples once
 * more and returns {sum, parts} in MiB (NaN for a process never read). The kernel keeps a peak
 * of RSS (VmHWM) but none of Pss, so a peak between two samples can be missed: a lower bound of
 * each process's peak, summed as the RSS rows sum the VmHWMs.
 */
export function pssPeaks(pids, everyMs = 250) {
	const peaks = pids.map(() => Number.NaN);
	const sample = () => {
		for (const [i, pid] of pids.entries()) {
			const pss = pssMiB(pid);
			if (pss !== undefined && !(pss <= peaks[i])) peaks[i] = pss;
		}
	};

	sample();
	const timer = setInterval(sample, everyMs);
	timer.unref();
	return {
		stop() {
			clearInterval(timer);
			sample();
			return {sum: peaks.reduce((a, b) => a + b, 0), parts: [...peaks]};
		},
	};
}

/** The pids whose parent is `pid` and whose command line contains `marker` (all of them without one). */
export function childrenOf(pid, marker) {
	const found = [];
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) {
			continue;
		}

		try {
			const text = readFileSync(`/proc/${name}/stat`, 'utf8');
			const ppid = Number(text.slice(text.lastIndexOf(')') + 2).split(' ', 2)[1]);
			if (ppid === pid && (marker === undefined || readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker))) {
				found.push(Number(name));
			}
		} catch {
			// exited meanwhile
		}
	}

	return found;
}

/** The 1-minute load average, as printed beside a figure taken now. */
export function loadNow() {
	return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
}

export function alive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** Alive and not a zombie waiting to be reaped (pid 1 of a container may take a second or two). */
export function running(pid) {
	try {
		const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return !/^[ZX]/.test(text.slice(text.lastIndexOf(')') + 2));
	} catch {
		return false;
	}
}

export function groupAlive(pgid) {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch {
		return false;
	}
}

export async function waitFor(what, check, timeoutMs = 30_000, pollMs = 20) {
	const started = Date.now();
	for (;;) {
		const value = check();
		if (value) {
			return value;
		}

		if (Date.now() - started > timeoutMs) {
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		}

		await sleep(pollMs);
	}
}

/**
 * Waits until the processes have stopped working through a backlog (less than 2% of a core over
 * half a second, together), so that the CPU a workload cost includes what the tool did after its
 * agents had finished: drawing the output it had not drawn yet.
 */
export async function settleCpu(pids, capMs = 30_000) {
	const started = Date.now();
	let last = cpuSecondsOf(pids);
	while (Date.now() - started < capMs) {
		await sleep(500);
		const now = cpuSecondsOf(pids);
		if (now - last < 0.011) {
			return;
		}

		last = now;
	}
}

export function countFiles(dir) {
	return existsSync(dir) ? readdirSync(dir).length : 0;
}

/** The pids the agents recorded in their state folder (each leads its process group). */
export function agentPids(state) {
	const dir = path.join(state, 'pid');
	if (!existsSync(dir)) {
		return [];
	}

	return readdirSync(dir).map(name => Number(readFileSync(path.join(dir, name), 'utf8').trim())).filter(pid => pid > 0);
}

export function killGroups(pids) {
	for (const pid of pids) {
		for (const target of [-pid, pid]) {
			try {
				process.kill(target, 'SIGKILL');
			} catch {
				// gone already
			}
		}
	}
}

/**
 * Whether any process of the group is still alive, zombies not counted: an orphaned member
 * that has exited waits for pid 1 to reap it, and some container inits do that only every
 * second or two, which would be measured as the tool's delay.
 */
export function groupHasLiveMember(pgid) {
	if (!groupAlive(pgid)) {
		return false;
	}

	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) {
			continue;
		}

		let text;
		try {
			text = readFileSync(`/proc/${name}/stat`, 'utf8');
		} catch {
			continue; // exited meanwhile
		}

		// After the command name: state, ppid, pgrp.
		const [state, , pgrp] = text.slice(text.lastIndexOf(')') + 2).split(' ', 3);
		if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') {
			return true;
		}
	}

	return false;
}
