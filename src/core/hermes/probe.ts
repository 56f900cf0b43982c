// What the installed `hermes` can do. Releases differ in the flags `hermes chat` takes (0.19.0 has
// no --reasoning; --format stream-json and --query-file arrived in 0.20.6), and an unknown flag
// makes argparse refuse the whole call. So we ask the binary itself, once per run: `--version`
// always (cheap, and it changes whenever Hermes is upgraded), `chat --help` only when the version
// line or the binary changed since the last probe (it costs up to ~2.5 s on 0.20.0).
import {execFile} from 'node:child_process';
import {accessSync, constants, readFileSync, realpathSync, statSync} from 'node:fs';
import {homedir} from 'node:os';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import {z} from 'zod';
import {outputModeOf} from './flags.js';
import {makeFolder} from './home.js';
import type {BatchReport, HermesCapabilities} from '../types.js';

type Flags = HermesCapabilities['flags'];

/** What we assume of a Hermes we could not ask: the oldest release we support (0.19.0). */
export const assumedFlags: Flags = {
	quiet: true,
	reasoning: false,
	streamJson: false,
	queryFile: false,
	runBudget: false,
	maxTurns: true,
	toolsets: true,
	skills: true,
	worktree: true,
	source: true,
	provider: true,
	cli: true,
};

export function unprobed(bin: string, problem: string): HermesCapabilities {
	return {bin, version: null, probed: false, problem, flags: {...assumedFlags}};
}

/**
 * What `hermes --version`'s first line says. A release prints `Hermes Agent v0.19.0 (2026.7.20)`;
 * from 0.21 a source install may print its build in place of the release (upstream's
 * hermes_cli/version_info.py): `v0.21.5+3160.g42d70d2.dirty` (the release, commits since, commit,
 * local changes), `vgit.42d70d2` (no release tag reachable) or `vunknown`, and a git install may add
 * ` · upstream 42d70d2` after the date. `version` is the release (null where the line names none:
 * then nothing is assumed of it, and the flags come from `chat --help` as always); `label` is the
 * word as printed.
 */
export function parseVersionLine(output: string): {version: string | null; label: string | null} {
	const label = /Hermes Agent v?(\S+)/i.exec(output)?.[1] ?? null;
	const version = label === null ? null : /^(\d+\.\d+\.\d+)(?:$|[+-])/.exec(label)?.[1] ?? null;
	return {version, label};
}

/** `Hermes Agent v0.19.0 (2026.7.20)` → `0.19.0`; `v0.21.5+3160.g42d70d2.dirty` → `0.21.5`; `vgit.42d70d2` → null. */
export function parseVersion(output: string): string | null {
	return parseVersionLine(output).version;
}

/**
 * The flags `hermes chat --help` lists. argparse prints each option at the start of a line of the
 * options section (`  -Q, --quiet`, `  --reasoning LEVEL`); matching whole option words there,
 * not anywhere in the text, keeps a help sentence that merely mentions a flag from counting.
 */
export function parseChatHelp(help: string): Flags {
	const options = new Set<string>();
	for (const line of help.split('\n')) {
		const match = /^\s{1,6}(-{1,2}[\w-]+(?:[ =][^,\s]+)?(?:,\s*-{1,2}[\w-]+(?:[ =][^,\s]+)?)*)/.exec(line);
		if (!match) {
			continue;
		}

		for (const option of match[1]!.matchAll(/-{1,2}[\w-]+/g)) {
			options.add(option[0]);
		}
	}

	// The usage synopsis lists every option too (`[--reasoning LEVEL]`): a help text whose option
	// lines were re-wrapped or translated still tells us what exists.
	for (const option of help.matchAll(/\[(-{1,2}[\w-]+)/g)) {
		options.add(option[1]!);
	}

	const has = (...names: string[]) => names.some(name => options.has(name));
	const formatLine = help.split('\n').find(line => /--format\b/.test(line)) ?? '';
	return {
		quiet: has('-Q', '--quiet'),
		reasoning: has('--reasoning'),
		// --format alone is not enough: stream-json must be one of its choices (or the help must say so).
		streamJson: has('--format') && (/stream-json/.test(help) || /\{[^}]*stream-json/.test(formatLine)),
		queryFile: has('--query-file'),
		runBudget: has('--run-budget'),
		maxTurns: has('--max-turns'),
		toolsets: has('-t', '--toolsets'),
		skills: has('-s', '--skills'),
		worktree: has('-w', '--worktree'),
		source: has('--source'),
		provider: has('--provider'),
		cli: has('--cli'),
	};
}

// The cache file is ours but on disk, so anyone may have written it: each entry is checked when
// used, and one that does not fit (an older release's, with a flag missing) is a cache miss.
const cacheEntry = z.object({
	key: z.string(),
	flags: z.object({
		quiet: z.boolean(),
		reasoning: z.boolean(),
		streamJson: z.boolean(),
		queryFile: z.boolean(),
		runBudget: z.boolean(),
		maxTurns: z.boolean(),
		toolsets: z.boolean(),
		skills: z.boolean(),
		worktree: z.boolean(),
		source: z.boolean(),
		provider: z.boolean(),
		// Required here: an entry probed before --cli was looked for is a miss, and is probed again.
		cli: z.boolean(),
	}) satisfies z.ZodType<Flags>,
});
// Other binaries' entries are kept as they are when one is written.
const cacheFile = z.object({entries: z.record(z.string(), z.unknown())});
type CacheEntry = z.infer<typeof cacheEntry>;
type CacheFile = z.infer<typeof cacheFile>;

export function defaultCachePath(env: NodeJS.ProcessEnv = process.env): string {
	const base = env['XDG_CACHE_HOME'] && path.isAbsolute(env['XDG_CACHE_HOME']) ? env['XDG_CACHE_HOME'] : path.join(homedir(), '.cache');
	return path.join(base, 'hermes-delegate', 'hermes-probe.json');
}

export type ProbeOptions = {
	env: NodeJS.ProcessEnv;
	/** Where probe results are cached; undefined: no cache. */
	cachePath?: string | undefined;
	timeoutMs?: number;
};

/** Probes `bin` (an absolute, checked path). Never throws: a failed probe is reported in `problem`. */
export async function probeHermes(bin: string, options: ProbeOptions): Promise<HermesCapabilities> {
	const timeoutMs = options.timeoutMs ?? 60_000;
	const versionRun = await capture(bin, ['--version'], options.env, timeoutMs);
	if (versionRun.error) {
		return unprobed(bin, `\`${bin} --version\` failed: ${versionRun.error}`);
	}

	const versionText = `${versionRun.stdout}\n${versionRun.stderr}`;
	const {version, label} = parseVersionLine(versionText);
	// The label is said only where it is more than the release (a build, or no release at all).
	const versionLabel = label !== null && label !== version ? {versionLabel: label} : {};
	const key = cacheKey(bin, versionText);
	const cached = key && options.cachePath ? cacheEntry.safeParse(readCache(options.cachePath)?.entries[bin]) : undefined;
	if (cached?.success && cached.data.key === key) {
		return {bin, version, ...versionLabel, probed: true, flags: cached.data.flags};
	}

	const helpRun = await capture(bin, ['chat', '--help'], options.env, timeoutMs);
	if (helpRun.error || !/usage:/i.test(helpRun.stdout)) {
		return {...unprobed(bin, `\`${bin} chat --help\` failed: ${helpRun.error ?? 'it printed no usage'}`), version, ...versionLabel};
	}

	const flags = parseChatHelp(helpRun.stdout);
	if (key && options.cachePath) {
		writeCache(options.cachePath, bin, {key, flags: {...flags, cli: flags.cli ?? false}});
	}

	return {bin, version, ...versionLabel, probed: true, flags};
}

/** The binary's real path, size and mtime plus what --version said: any upgrade changes one of them. */
function cacheKey(bin: string, versionText: string): string | undefined {
	try {
		const real = realpathSync(bin);
		const stat = statSync(real);
		return JSON.stringify([real, stat.size, stat.mtimeMs, versionText.trim()]);
	} catch {
		return undefined;
	}
}

function readCache(file: string): CacheFile | undefined {
	try {
		const parsed = cacheFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
		return parsed.success ? parsed.data : undefined;
	} catch {
		return undefined;
	}
}

// A cache is an optimisation: a folder we may not write costs a probe next time, nothing else.
function writeCache(file: string, bin: string, entry: CacheEntry): void {
	try {
		makeFolder(path.dirname(file), 'none needed: the probe runs again next time');
		const cache = readCache(file) ?? {entries: {}};
		cache.entries[bin] = entry;
		writeFileAtomic.sync(file, `${JSON.stringify(cache, null, 2)}\n`, {mode: 0o600});
	} catch {}
}

type Captured = {stdout: string; stderr: string; error?: string};

function capture(file: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Captured> {
	const [command, commandArgs] = dyingWithUs(file, args, env);
	return new Promise(resolve => {
		// Hermes dies with a BrokenPipeError when its output is cut short: read everything.
		execFile(command, commandArgs, {env, timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, killSignal: 'SIGKILL'}, (error, stdout, stderr) => {
			if (error) {
				const reason = error.killed ? `no answer within ${timeoutMs / 1000} s` : firstLine(stderr) || error.message;
				resolve({stdout, stderr, error: reason});
				return;
			}

			resolve({stdout, stderr});
		});
	});
}

/**
 * The probe runs before the run folder exists, so no record of it can tell `gc` about it: after a
 * SIGKILL of hermes-delegate a hanging probe lived on, unseen. util-linux's setpriv asks the kernel
 * to SIGKILL it when we die (PR_SET_PDEATHSIG, kept across its exec of Hermes). Without setpriv
 * (not Linux, or no util-linux) the probe runs as before; its own timeout still ends it.
 */
function dyingWithUs(file: string, args: string[], env: NodeJS.ProcessEnv): [string, string[]] {
	const setpriv = process.platform === 'linux' ? findOnPath('setpriv', env) : undefined;
	return setpriv ? [setpriv, ['--pdeathsig', 'KILL', '--', file, ...args]] : [file, args];
}

function findOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
	for (const dir of (env['PATH'] ?? '/usr/bin:/bin').split(path.delimiter)) {
		const candidate = path.join(dir || '.', name);
		try {
			accessSync(candidate, constants.X_OK);
			return path.isAbsolute(candidate) ? candidate : undefined;
		} catch {}
	}

	return undefined;
}

function firstLine(text: string): string {
	return text.split('\n').map(line => line.trim()).find(Boolean) ?? '';
}

/** One line for --dry-run, doctor and the results: what was found. */
export function describeCapabilities(caps: HermesCapabilities): string {
	if (!caps.probed) {
		return `not probed (${caps.problem ?? 'unknown'}); assuming Hermes 0.19.0's flags`;
	}

	const flags = caps.flags;
	const listed = [
		flags.quiet && '-Q',
		flags.streamJson && '--format stream-json',
		flags.reasoning && '--reasoning',
		flags.queryFile && '--query-file',
		flags.runBudget && '--run-budget',
		flags.maxTurns && '--max-turns',
		flags.toolsets && '-t',
		flags.skills && '-s',
		flags.worktree && '-w',
		flags.cli && '--cli',
	].filter(Boolean);
	const named = caps.versionLabel ? `${caps.version ?? 'of no known release'} (${caps.versionLabel})` : caps.version ?? '(unknown version)';
	return `Hermes ${named}: chat has ${listed.join(', ')}`;
}

/** What the results, --dry-run and doctor say about the Hermes that runs (or would run) the batch. */
export function hermesSummary(caps: HermesCapabilities): BatchReport['hermes'] {
	return {
		bin: caps.bin,
		version: caps.version,
		...(caps.versionLabel ? {version_label: caps.versionLabel} : {}),
		probed: caps.probed,
		...(caps.problem ? {problem: caps.problem} : {}),
		output: outputModeOf(caps.flags),
		flags: caps.flags,
	};
}
