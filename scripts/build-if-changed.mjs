// `npm run demo`, `npm test`, `npm run bench`, `npm run docs` and `npm run screenshot` all need a
// current dist/, and a build takes ~16 s: build only when a build input changed since dist/ was
// built (scripts/build-inputs.mjs), so `npm ci && npm run demo` builds once. (No `prepare` script
// builds at install: the published package would carry it, and it needs src/ and scripts/, which
// the package does not ship; issue 40.)
import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {buildInputsHash, stampFile} from './build-inputs.mjs';

function builtFrom() {
	try {
		return readFileSync(path.join('dist', stampFile), 'utf8').trim();
	} catch {
		return undefined; // never built, or built before stamps existed
	}
}

if (builtFrom() === buildInputsHash()) {
	console.error('hermes-delegate: dist/ is up to date with the sources; not rebuilding (`npm run build` forces it)');
} else {
	// npm is on PATH in every npm script; tsc and the bundler say themselves what went wrong.
	process.exitCode = spawnSync('npm', ['run', 'build'], {stdio: 'inherit'}).status ?? 1;
}
