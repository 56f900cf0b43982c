// Drives the built CLI (dist/cli.js) as a user would: a throwaway HERMES_HOME with its own
// config.yaml, the fake agent as --hermes-bin, and FAKE_HERMES_ARGV_FILE to learn whether any
// agent was started at all.
import {spawn, type ChildProcessByStdio} from 'node:child_process';
import {accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import type {Readable} from 'node:stream';
import {fileURLToPath} from 'node:url';
import {execa} from 'execa';
import {runsDir} from '../../src/core/hermes/home.js';
import {signalGroup} from '../../src/core/process/group.js';
import {isOwnerAlive, readRunOwner} from '../../src/core/run-folder/owner.js';
import type {ProcessRecord} from '../../src/core/run-folder/folder.js';
import {fakeAgentPath} from './processes.js';

function locateCli(): string {
	const file = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
	try {
		accessSync(file, constants.R_OK);
	} catch {
		throw new Error(`The CLI ${file} is missing. Build first: npm run build`);
	}

	return file;
}

export const cliPath: string = locateCli();

/** A model_map config with two routes, for runs that should show a route in their results. */
export const modelMapConfig = `delegation:
  backend: model_map
  backends:
    model_map:
      options:
        - name: fast
          description: "Cheap and quick: lookups, summaries, simple edits."
          provider: openrouter
          model: google/gemini-3-flash-preview
        - name: deep
          description: "Slow and careful: hard debugging and design work."
          provider: anthropic
          model: claude-opus-5
          reasoning_effort: high
      default: fast
`;

export type TestHome = {
	dir: string;
	/** Where the fake agent appends its argv; absent as long as no agent was started. */
	argvFile: string;
	runsDir: string;
	/** Writes a file relative to the home (or absolute) and returns its path. */
	write(file: string, text: string): string;
	/** Run folders created so far. */
	runs(): string[];
	/** Subagents started: every `hermes` call except the probes (`--version`, `chat --help`). */
	agentRuns(): unknown[][];
	/** The probes hermes-delegate made of the binary before planning. */
	probes(): unknown[][];
	/** Process groups the runs recorded as started, from every run folder's processes.jsonl. */
	recordedGroups(): number[];
	/** For afterEach: SIGKILL whatever a failed test left running, then delete the home. */
	remove(): void;
};

export function makeHome(config: string | undefined = modelMapConfig): TestHome {
	const dir = mkdtempSync(path.join(tmpdir(), 'hermes-delegate-e2e-'));
	const home: TestHome = {
		dir,
		argvFile: path.join(dir, 'argv.jsonl'),
		runsDir: runsDir(dir),
		write(file, text) {
			const target = path.resolve(dir, file);
			mkdirSync(path.dirname(target), {recursive: true});
			writeFileSync(target, text);
			return target;
		},
		runs: () => (existsSync(home.runsDir) ? readdirSync(home.runsDir) : []),
		agentRuns: () => recordedCalls(home.argvFile).filter(argv => !isProbe(argv)),
		probes: () => recordedCalls(home.argvFile).filter(isProbe),
		recordedGroups: () => home.runs().flatMap(run => recordedGroups(path.join(home.runsDir, run))),
		remove() {
			// Runner hosts first (tui, demo and run --detach start one): a host a failed test left
			// waiting would go on writing into the home while it is deleted.
			for (const run of home.runs()) {
				const owner = readRunOwner(path.join(home.runsDir, run));
				if (owner && owner.pid !== process.pid && isOwnerAlive(owner)) {
					try {
						process.kill(owner.pid, 'SIGKILL');
					} catch {}
				}
			}

			for (const pgid of home.recordedGroups()) signalGroup(pgid, 'SIGKILL');
			// A host ending by itself meanwhile may still add its last line to host.log: retried, not fatal.
			rmSync(dir, {recursive: true, force: true, maxRetries: 10});
		},
	};
	if (config !== undefined) home.write('config.yaml', config);
	return home;
}

function recordedCalls(argvFile: string): unknown[][] {
	return existsSync(argvFile) ? readFileSync(argvFile, 'utf8').trim().split('\n').map(line => JSON.parse(line) as unknown[]) : [];
}

function isProbe(argv: unknown[]): boolean {
	return argv.includes('--version') || argv.includes('--help');
}

export type CliOptions = {
	/** Text piped to stdin; stdin is an empty pipe otherwise. */
	input?: string;
	env?: NodeJS.ProcessEnv;
	/** Leave out `--hermes-bin <fake agent>` (it is appended to batch commands by default). */
	noHermesBin?: boolean;
	/** Kill the command after this long (a test of a hang must not leave it spinning). */
	killAfterMs?: number;
};

export type CliResult = {exitCode: number | undefined; stdout: string; stderr: string};

export function cliEnv(home: TestHome, env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	// The probe cache goes into the home too: each test asks its own binary, as a fresh machine would.
	// TMPDIR too: every command checks the demo home ($TMPDIR/hermes-delegate-demo-<uid>) for orphans,
	// and a real one left by a killed demo must not put a warning into these tests' stderr.
	const base: NodeJS.ProcessEnv = {...process.env, HERMES_HOME: home.dir, TMPDIR: home.dir, XDG_CACHE_HOME: path.join(home.dir, '.cache'), FAKE_HERMES_ARGV_FILE: home.argvFile, NO_COLOR: '1'};
	delete base['HERMES_BIN'];
	// Each test's demo home is its TMPDIR's: one set for the whole machine would be shared again.
	delete base['HERMES_DELEGATE_DEMO_HOME'];
	delete base['HERMES_ORCHESTRATOR_MODE'];
	return {...base, ...env};
}

function cliArgs(args: readonly string[], options: CliOptions): string[] {
	const batch = ['run', 'tui', 'demo'].includes(args[0] ?? '');
	return batch && !options.noHermesBin ? [cliPath, ...args, '--hermes-bin', fakeAgentPath] : [cliPath, ...args];
}

/** Runs `hermes-delegate ARGS` to completion. */
export async function runCli(home: TestHome, args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
	const result = await execa(process.execPath, cliArgs(args, options), {
		env: cliEnv(home, options.env),
		extendEnv: false,
		input: options.input ?? '',
		reject: false,
		...(options.killAfterMs === undefined ? {} : {timeout: options.killAfterMs, killSignal: 'SIGKILL' as const}),
	});
	return {exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr};
}

/** Starts `hermes-delegate ARGS` and hands back the running process (stdout/stderr are pipes). */
export function startCli(home: TestHome, args: readonly string[], options: CliOptions = {}) {
	return execa(process.execPath, cliArgs(args, options), {
		env: cliEnv(home, options.env),
		extendEnv: false,
		input: options.input ?? '',
		reject: false,
	});
}

/**
 * Starts `hermes-delegate ARGS` on plain pipes that nothing else reads (stdin is /dev/null), for
 * tests that close a pipe under it, as `| head` does.
 */
export function spawnCli(home: TestHome, args: readonly string[], options: Omit<CliOptions, 'input'> = {}): ChildProcessByStdio<null, Readable, Readable> {
	return spawn(process.execPath, cliArgs(args, options), {env: cliEnv(home, options.env), stdio: ['ignore', 'pipe', 'pipe']});
}

/** Inline JSON for `run`: each task's directives ride in its context, as the launcher appends it. */
export function tasksJson(...tasks: Array<{goal: string; context?: string} & Record<string, unknown>>): string {
	return JSON.stringify(tasks);
}

/** The pgids a run folder's processes.jsonl says were started. */
export function recordedGroups(runDir: string): number[] {
	const file = path.join(runDir, 'processes.jsonl');
	if (!existsSync(file)) return [];
	return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean)
		.map(line => JSON.parse(line) as ProcessRecord)
		.filter(record => record.event === 'started')
		.map(record => record.pgid);
}

/**
 * Runs `hermes-delegate ARGS | true` in bash: the reader exits at once, long before Node has
 * started and written a byte. Resolves with the command's own exit code and its stderr.
 */
export async function runCliIntoClosedPipe(home: TestHome, args: readonly string[]): Promise<{exitCode: number; stderr: string}> {
	const result = await execa('bash', ['-c', '"$@" | true; echo "${PIPESTATUS[0]}"', 'bash', process.execPath, ...cliArgs(args, {})], {
		env: cliEnv(home),
		extendEnv: false,
		input: '',
		reject: false,
	});
	return {exitCode: Number(result.stdout.trim()), stderr: result.stderr};
}
