// The Hermes releases the fake can pose as (env FAKE_HERMES_VERSION), with what each one's CLI has.
// 0.19.0 and 0.20.0 were installed and observed (docs/hermes-releases.md); 0.20.6 adds what
// upstream's hermes_cli/_parser.py and stream_json.py show for the late-August 2026 releases; 0.21.5
// what upstream's source shows for late September (read, never run: docs/hermes-releases.md).
import {dirname} from 'node:path';
import {fileURLToPath} from 'node:url';

export type FakeVersion = {
	version: '0.19.0' | '0.20.0' | '0.20.6' | '0.21.5';
	/** The release tag's date, as `--version` prints it. */
	date: string;
	reasoning: boolean;
	/** `chat --format {text,stream-json}`, `--query-file PATH` and `--run-budget SECONDS` came together. */
	streamJson: boolean;
	/** `--max-turns`'s default, as the help names it. */
	maxTurnsDefault: number;
	/** The top-level parser's sub-commands, in its order (its usage and "invalid choice" list them). */
	commands: readonly string[];
	/**
	 * What 0.21 changed (release-021.ts): config.yaml read by ruamel.yaml (YAML 1.1 with bare y/n,
	 * duplicate keys refused), an exit 1 when --max-turns ran out, warnings on stderr, state.db
	 * schema 30's hidden message rows, a machine-readable reason on a refused start.
	 */
	newer?: true;
};

const commands019 = 'chat,model,moa,fallback,secrets,migrate,gateway,proxy,lsp,setup,postinstall,whatsapp,whatsapp-cloud,slack,send,login,logout,auth,status,cron,webhook,portal,kanban,project,hooks,doctor,security,dump,debug,backup,checkpoints,import,config,console,pairing,skills,bundles,plugins,curator,pets,journey,learning,memory-graph,memory,tools,computer-use,mcp,sessions,insights,claw,version,update,uninstall,acp,profile,completion,dashboard,serve,desktop,gui,logs,prompt-size';
const commands020 = 'chat,model,moa,fallback,secrets,egress,migrate,gateway,proxy,lsp,setup,whatsapp,whatsapp-cloud,slack,send,login,logout,auth,status,cron,sync,webhook,portal,kanban,project,hooks,doctor,security,approvals,dump,debug,backup,checkpoints,import,import-agent,config,skin,console,pairing,skills,bundles,plugins,curator,pets,journey,learning,memory-graph,memory,tools,computer-use,mcp,sessions,insights,monitoring,claw,version,update,uninstall,acp,profile,completion,dashboard,serve,desktop,gui,logs,prompt-size';

export const fakeVersions: readonly FakeVersion[] = [
	{version: '0.19.0', date: '2026.7.20', reasoning: false, streamJson: false, maxTurnsDefault: 90, commands: commands019.split(',')},
	{version: '0.20.0', date: '2026.8.3', reasoning: true, streamJson: false, maxTurnsDefault: 500, commands: commands020.split(',')},
	{version: '0.20.6', date: '2026.8.27', reasoning: true, streamJson: true, maxTurnsDefault: 500, commands: commands020.split(',')},
	{version: '0.21.5', date: '2026.9.24', reasoning: true, streamJson: true, maxTurnsDefault: 500, commands: commands020.split(','), newer: true},
];

/**
 * What the demo and every test that asks for no release run: 0.20.6, the newest release whose
 * behaviour the project's tests were written against; 0.21.5 is asked for by name.
 */
export const defaultFakeVersion: FakeVersion = fakeVersions.find((entry) => entry.version === '0.20.6')!;

export function selectFakeVersion(requested: string | undefined): FakeVersion | string {
	if (requested === undefined || requested === '') return defaultFakeVersion;
	const found = fakeVersions.find((entry) => entry.version === requested);
	return found ?? `fake hermes: FAKE_HERMES_VERSION=${requested} is not one of ${fakeVersions.map((entry) => entry.version).join(', ')}`;
}

/** `hermes --version`, line for line as each release prints it (0.19.0 was a pip install, 0.20.x editable). */
export function versionText(fake: FakeVersion, env: NodeJS.ProcessEnv = {}): string {
	const installDirectory = dirname(fileURLToPath(import.meta.url));
	// FAKE_HERMES_VERSION_LABEL: what a source install prints in place of the release (upstream's
	// hermes_cli/version_info.py: `0.21.5+3160.g42d70d2.dirty`, `git.42d70d2`, `unknown`).
	const label = env['FAKE_HERMES_VERSION_LABEL'] || fake.version;
	const lines = [`Hermes Agent v${label} (${fake.date})`, `Install directory: ${installDirectory}`];
	if (fake.version === '0.19.0') lines.push('Install method: pip');
	lines.push('Python: 3.11.7', 'OpenAI SDK: 2.54.0');
	if (fake.version !== '0.19.0') lines.push("Run 'hermes version' for update status.");
	return `${lines.join('\n')}\n`;
}
