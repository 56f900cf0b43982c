// Which folders a run may be read from and acted on. The demo home is a predictable name in the
// shared temp folder: another local user could make it first and plant a run whose process records
// name a process of yours, and `gc` would kill it. So a home and a run folder
// are used only when each folder from the home down to the run is ours, a real folder (no symlink),
// and writable by nobody else (others never; the group only when it is our own group, as in the
// one-group-per-user scheme). Everything is looked at with lstat, never followed.
import {lstatSync} from 'node:fs';
import path from 'node:path';
import {runsDir} from '../hermes/home.js';

/** Why `dir` is not a folder of ours that only we may change, or undefined when it is. */
export function distrustOf(dir: string, ids: {uid?: number | undefined; gid?: number | undefined} = {uid: process.getuid?.(), gid: process.getgid?.()}): string | undefined {
	let stat;
	try {
		stat = lstatSync(dir);
	} catch (error) {
		return `it cannot be looked at (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
	}

	if (stat.isSymbolicLink()) return 'it is a symbolic link';
	if (!stat.isDirectory()) return 'it is not a folder';
	if (ids.uid === undefined) return undefined; // No uids (not POSIX): nothing to compare.
	if (stat.uid !== ids.uid) return `it belongs to uid ${stat.uid}, not to you (uid ${ids.uid})`;
	const mode = stat.mode & 0o777;
	if ((mode & 0o002) !== 0 || ((mode & 0o020) !== 0 && stat.gid !== ids.gid)) return `other users may write to it (mode ${mode.toString(8).padStart(3, '0')})`;
	return undefined;
}

/** The fix that goes with a distrusted folder. */
export function distrustFix(dir: string): string {
	return `If ${dir} is yours, \`chmod go-w ${dir}\`; if it is not, remove it (as its owner or root) and do not use it`;
}

/** Why the runs of `hermesHome` are not to be trusted (the home, delegate/, runs/: the first that fails), or undefined. */
export function homeDistrust(hermesHome: string): {dir: string; why: string} | undefined {
	const home = path.resolve(hermesHome);
	for (const dir of [home, path.dirname(runsDir(home)), runsDir(home)]) {
		const why = distrustOf(dir);
		if (why !== undefined) return {dir, why};
	}

	return undefined;
}
