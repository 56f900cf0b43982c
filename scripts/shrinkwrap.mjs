// The published package carries npm-shrinkwrap.json, a copy of package-lock.json made by `prepack`
// and removed by `postpack` (so the repository keeps one lockfile). npm honours a published
// shrinkwrap: a user's install gets exactly the versions that were bundled into dist/, so what
// `npm ls`, `npm audit` and SBOM tools report is what runs. Development dependencies in it are
// marked "dev" and not installed.
import {copyFileSync, rmSync} from 'node:fs';

if (process.argv[2] === 'remove') {
	rmSync('npm-shrinkwrap.json', {force: true});
} else {
	copyFileSync('package-lock.json', 'npm-shrinkwrap.json');
}
