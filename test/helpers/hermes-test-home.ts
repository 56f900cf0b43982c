// A throw-away HERMES_HOME for the real `hermes`, pointed at the tests' mock model server, with
// the settings a test home needs (without them every call tries to download
// helpers and prints a warning on stdout), and the environment a child `hermes` should get.
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';

export type MockProfile = {
	/** The model this profile's config.yaml names (default: the home's model). */
	model?: string;
};

export type HermesTestHomeSpec = {
	/** The mock's `/v1` base URL. */
	baseUrl: string;
	/** `model.default` of the root config (default "m1"). */
	model?: string;
	/** Text appended to config.yaml as is: e.g. a whole `delegation:` section. */
	extraConfig?: string;
	/** Profiles to create as `profiles/NAME/config.yaml`, each on the same mock. */
	profiles?: Record<string, MockProfile>;
	/** Written to `<home>/active_profile`, as `hermes profile use NAME` does. */
	activeProfile?: string;
};

export type HermesTestHome = {
	dir: string;
	configPath: string;
	/** The whole environment for a `hermes` (or hermes-delegate) child: nothing inherited but PATH. */
	env: Record<string, string>;
	/** True when the sqlite session store of `home` (the root, or a profile name) holds SESSION_ID. */
	holdsSession(sessionId: string, profile?: string): boolean;
	remove(): void;
};

/**
 * One HTTP 500 costs 11–14 s with Hermes's default 3 attempts and back-off; `agent.api_max_retries: 1`
 * (agent/agent_init.py: "1 = no retry (single attempt)", both 0.19.0 and 0.20.0) makes it one request.
 */
function configText(baseUrl: string, model: string, extra = ''): string {
	return `model:
  default: ${model}
  provider: custom
  base_url: ${baseUrl}
  api_key: dummy
agent:
  api_max_retries: 1
security:
  allow_lazy_installs: false
  tirith_enabled: false
${extra}`;
}

export function makeHermesTestHome(spec: HermesTestHomeSpec): HermesTestHome {
	const dir = mkdtempSync(path.join(tmpdir(), 'hermes-real-home-'));
	const model = spec.model ?? 'm1';
	const configPath = path.join(dir, 'config.yaml');
	writeFileSync(configPath, configText(spec.baseUrl, model, spec.extraConfig));
	for (const [name, profile] of Object.entries(spec.profiles ?? {})) {
		const profileDir = path.join(dir, 'profiles', name);
		mkdirSync(profileDir, {recursive: true});
		writeFileSync(path.join(profileDir, 'config.yaml'), configText(spec.baseUrl, profile.model ?? model));
	}

	if (spec.activeProfile !== undefined) writeFileSync(path.join(dir, 'active_profile'), `${spec.activeProfile}\n`);

	// 0.20.0 copies its 8.5 MB of bundled skills into every fresh home unless this points elsewhere.
	const noSkills = path.join(dir, '.test-no-bundled-skills');
	mkdirSync(noSkills);
	// Its own HOME too: nothing is read from, or written to, the real user's ~/.hermes or ~/.local.
	const userHome = path.join(dir, '.test-user-home');
	mkdirSync(userHome);

	const env: Record<string, string> = {
		PATH: process.env['PATH'] ?? '/usr/bin:/bin',
		HOME: userHome,
		HERMES_HOME: dir,
		HERMES_BUNDLED_SKILLS: noSkills,
		LANG: 'C.UTF-8',
		TMPDIR: tmpdir(),
		NO_COLOR: '1',
	};

	return {
		dir,
		configPath,
		env,
		holdsSession(sessionId, profile) {
			// The session store is sqlite in WAL mode: a fresh row may still be in the -wal file. The id
			// is stored as plain text, so looking for its bytes needs no sqlite client.
			const base = profile === undefined ? dir : path.join(dir, 'profiles', profile);
			return ['state.db', 'state.db-wal'].some(file => {
				const target = path.join(base, file);
				return existsSync(target) && readFileSync(target).includes(sessionId);
			});
		},
		remove() {
			rmSync(dir, {recursive: true, force: true});
		},
	};
}
