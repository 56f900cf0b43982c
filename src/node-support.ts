// The Node versions hermes-delegate runs on. write-file-atomic 7 needs ^20.17 || >=22.9 (so Node 21
// is out too); on an older Node the first sign would otherwise be a crash deep inside a library.
// package.json "engines" says the same (a test keeps them equal).
export const supportedNode = '^20.17.0 || >=22.9.0';

/** Why this Node cannot run hermes-delegate, or undefined when it can. `version` as in process.versions.node. */
export function unsupportedNode(version: string): string | undefined {
	const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
	const supported = (major === 20 && minor >= 17) || (major === 22 && minor >= 9) || major > 22;
	if (supported) {
		return undefined;
	}

	return `hermes-delegate needs Node ${supportedNode}, but this is Node ${version}.\n  fix: install a current Node (e.g. \`nvm install 22\`), then run it again`;
}
