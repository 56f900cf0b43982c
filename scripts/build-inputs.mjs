// What dist/ is built from, as one hash: the build writes it into dist/ (build-stamp), and
// build-if-changed.mjs rebuilds only when the hash of the files now differs. Contents, not
// modification times: a fresh clone or a checkout touches every file without changing one.
import {createHash} from 'node:crypto';
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';

const inputs = ['src', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

export const stampFile = 'build-stamp';

function filesOf(entry) {
	try {
		return readdirSync(entry, {recursive: true, withFileTypes: true})
			.filter(dirent => dirent.isFile())
			.map(dirent => path.join(dirent.parentPath, dirent.name));
	} catch (error) {
		if (error.code === 'ENOTDIR') return [entry];
		if (error.code === 'ENOENT') return [];
		throw error;
	}
}

/** A hash of every build input's path and content, from the package root `root`. */
export function buildInputsHash(root = '.') {
	const hash = createHash('sha256');
	const files = inputs.flatMap(entry => filesOf(path.join(root, entry))).sort();
	for (const file of files) {
		hash.update(`${path.relative(root, file)}\0`);
		hash.update(readFileSync(file));
		hash.update('\0');
	}

	return hash.digest('hex');
}
