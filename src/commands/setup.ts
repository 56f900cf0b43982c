// `hermes-delegate setup hermes [--profile NAME] [--dry-run]`: makes the MCP server one of a
// Hermes home's tools. Adds `mcp_servers.delegate` to that home's config.yaml as a splice (the
// rest of the file, comments included, stays as it was; an entry already there is left alone, so
// running it twice gives one entry) and installs the skill (setup-skill.ts). --dry-run shows both
// and changes nothing.
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {withMcpServer, type McpServerEntry} from '../core/config/mcp-servers.js';
import {withConfigLock} from '../core/config/lock.js';
import {readCurrent, replaceFile, targetOf} from '../core/config/replace.js';
import {InputError} from '../core/errors.js';
import {normaliseProfileName, profileDir, resolveHermesHome} from '../core/hermes/home.js';
import {terminalSafe} from '../core/output/visible-text.js';
import {formatDiff, lineDiff} from '../core/text/line-diff.js';
import type {SetupOptions} from './flags.js';
import type {CommandIO} from './io.js';
import {skillCategory, skillName, skillText} from './setup-skill.js';

export const serverName = 'delegate';
/** Over batch_wait's 600 s limit: Hermes cuts a tool call at its default of 300 s otherwise. */
export const toolTimeoutSeconds = 660;

export async function setupCommand(agent: string, options: SetupOptions, io: Pick<CommandIO, 'stdout' | 'stderr' | 'env'>, cliPath = process.argv[1]): Promise<number> {
	if (agent !== 'hermes') throw new InputError(`cannot set up "${agent}"`, {}, 'the agent hermes-delegate sets up is hermes: `hermes-delegate setup hermes`');
	const hermesHome = resolveHermesHome(io.env);
	const profile = options.profile === undefined ? 'default' : normaliseProfileName(options.profile);
	if (profile === undefined) throw new InputError(`--profile: "${options.profile}" is not a Hermes profile name`, {}, 'a profile name is lower-case letters, digits, _ and -, starting with a letter or digit');
	const home = profileDir(hermesHome, profile);
	if (!existsSync(home)) throw new InputError(`no Hermes profile "${profile}" in ${hermesHome}`, {file: home}, 'create it with `hermes profile create NAME`, or leave out --profile for the home itself');
	if (cliPath === undefined) throw new Error('cannot tell where this hermes-delegate is (process.argv[1] is unset)');

	// The server reads the routes of this HERMES_HOME (where the delegation config and the runs live), whichever profile runs it.
	const entry: McpServerEntry = {name: serverName, command: path.resolve(cliPath), args: ['mcp'], env: {HERMES_HOME: hermesHome}, timeout: toolTimeoutSeconds};
	const configPath = path.join(home, 'config.yaml');
	const say = (text: string) => io.stdout.write(`${terminalSafe(text)}\n`);
	const before = readCurrent(configPath);
	const edit = withMcpServer(before ?? '', configPath, entry);
	const skillFile = path.join(home, 'skills', skillCategory, skillName, 'SKILL.md');
	const skill = skillText(serverName);
	const skillNow = existsSync(skillFile) ? readFileSync(skillFile, 'utf8') : undefined;
	const dry = options.dryRun ?? false;

	if (edit.added) {
		say(`${dry ? 'would add' : 'adding'} mcp_servers.${serverName} to ${configPath}:`);
		for (const line of formatDiff(lineDiff(before ?? '', edit.after))) say(`  ${line}`);
		if (!dry) save(configPath, before, entry);
	} else {
		say(`${configPath} has mcp_servers.${serverName} already: left as it is`);
	}

	if (skillNow === skill) {
		say(`the skill ${skillFile} is up to date`);
	} else {
		say(`${dry ? 'would write' : 'writing'} the skill ${skillFile}${skillNow === undefined ? '' : ' (replacing the older one)'}`);
		if (!dry) {
			mkdirSync(path.dirname(skillFile), {recursive: true});
			writeFileSync(skillFile, skill);
		}
	}

	say(dry ? 'dry run: nothing was changed' : `done: start a new Hermes session${profile === 'default' ? '' : ` (hermes -p ${profile})`} and its agent can delegate through the ${serverName} tools`);
	return 0;
}

/** Under the config lock; a file changed meanwhile is re-read and the entry added to what it holds. */
function save(configPath: string, loaded: string | undefined, entry: McpServerEntry): void {
	withConfigLock(targetOf(configPath), () => {
		let expected = loaded;
		for (let attempt = 0; attempt < 4; attempt++) {
			const {after, added} = withMcpServer(expected ?? '', configPath, entry);
			if (!added) return;
			const outcome = replaceFile(configPath, after, expected);
			if (outcome.kind === 'saved') return;
			expected = outcome.now;
		}

		throw new InputError('kept being changed by another program while saving', {file: configPath}, 'try again once the other program is done');
	});
}
