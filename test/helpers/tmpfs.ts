// A small tmpfs mounted on a folder for a test that needs a disk that fills (root only: tests skip
// with one line where mount is not allowed), and a filler that takes every byte left on it.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {spawnSync} from 'node:child_process';
import {tmpdir} from 'node:os';
import path from 'node:path';

function mount(dir: string, size: string): boolean {
	return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], {stdio: 'ignore'}).status === 0;
}

export function unmount(dir: string): void {
	if (spawnSync('umount', [dir], {stdio: 'ignore'}).status !== 0) spawnSync('umount', ['-l', dir], {stdio: 'ignore'});
}

/** Whether this process may mount a tmpfs (tried once, on a scratch folder). */
export const canMountTmpfs: boolean = (() => {
	const probe = mkdtempSync(path.join(tmpdir(), 'hermes-delegate-mount-probe-'));
	try {
		if (!mount(probe, '64k')) return false;
		unmount(probe);
		return true;
	} finally {
		rmSync(probe, {recursive: true, force: true});
	}
})();

/** Mounts a tmpfs of `size` (mount's syntax: 2m) on `dir`, creating it. */
export function mountTmpfs(dir: string, size: string): void {
	mkdirSync(dir, {recursive: true});
	if (!mount(dir, size)) throw new Error(`cannot mount a tmpfs on ${dir}`);
}

/** Writes `file` until the file system is full (ENOSPC); the file keeps what fitted. */
export function fillDisk(file: string): void {
	try {
		writeFileSync(file, Buffer.alloc(64 * 1024 * 1024));
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
		return;
	}

	throw new Error(`${file}: 64 MiB fitted; the disk was not filled`);
}
