// The published package carries npm-shrinkwrap.json, a copy of package-lock.json made by `prepack`
// and removed by `postpack` (so the repository keeps one lockfile). npm honours a published
// shrinkwrap: a user's install gets exactly the locked versions of the two packages dist/ loads
// from node_modules (better-sqlite3, write-file-atomic) and of theirs. Everything bundled into
// dist/ is a development dependency, marked "dev" in it and not installed.
import {copyFileSync, rmSync} from 'node:fs';

if (process.argv[2] === 'remove') {
	rmSync('npm-shrinkwrap.json', {force: true});
} else {
	copyFileSync('package-lock.json', 'npm-shrinkwrap.json');
}
