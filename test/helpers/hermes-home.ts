// Real HERMES_HOME folders for tests: a temp directory with a real config.yaml, real profile
// folders and an optional delegate.yaml, so config loading runs against the file system it reads.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';

export type HermesHomeFixture = {
	home: string;
	/** `<home>/config.yaml`; written only when `config` was given. */
	configPath: string;
	/** `<home>/delegate.yaml`; written only when `delegate` was given. */
	settingsPath: string;
};

export type HermesHomeSpec = {
	/** Text of config.yaml. */
	config?: string;
	/** Names of folders to create under profiles/. */
	profiles?: readonly string[];
	/** Text of delegate.yaml. */
	delegate?: string;
};

const created: string[] = [];

export function writeHermesHome(spec: HermesHomeSpec = {}): HermesHomeFixture {
	const home = mkdtempSync(path.join(tmpdir(), 'hd-home-'));
	created.push(home);
	const configPath = path.join(home, 'config.yaml');
	const settingsPath = path.join(home, 'delegate.yaml');
	if (spec.config !== undefined) {
		writeFileSync(configPath, spec.config);
	}

	for (const profile of spec.profiles ?? []) {
		mkdirSync(path.join(home, 'profiles', profile), {recursive: true});
	}

	if (spec.delegate !== undefined) {
		writeFileSync(settingsPath, spec.delegate);
	}

	return {home, configPath, settingsPath};
}

/** Removes every home made since the last call; register with `afterEach(removeHermesHomes)`. */
export function removeHermesHomes(): void {
	for (const home of created.splice(0)) {
		rmSync(home, {recursive: true, force: true});
	}
}
