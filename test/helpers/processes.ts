// Real processes for tests: the built fake agent (dist/fake-agent/hermes.js) and ways to run it.
import {accessSync, constants, existsSync, readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {execa} from 'execa';
import {signalGroup, spawnInGroup, type GroupProcess} from '../../src/core/process/group.js';
import type {HermesCapabilities} from '../../src/core/types.js';

function locateFakeAgent(): string {
	const path = fileURLToPath(new URL('../../dist/fake-agent/hermes.js', import.meta.url));
	try {
		accessSync(path, constants.X_OK);
	} catch {
		throw new Error(
			`The fake agent ${path} is missing or not executable. Build first: npm run build`,
		);
	}

	return path;
}

/** Absolute path of the built, executable fake `hermes`. */
export const fakeAgentPath: string = locateFakeAgent();

/** `chat -q QUERY ...flags`: the smallest command line the fake agent accepts. */
export function fakeAgentArgs(query: string, ...flags: string[]): string[] {
	return ['chat', '-q', query, ...flags];
}

export type FinishedRun = {exitCode: number | undefined; signal: string | undefined; stdout: string; stderr: string};

/** Runs the fake agent to completion with stdin on /dev/null, as the launcher does. */
export async function runFakeAgent(args: readonly string[], options: {env?: NodeJS.ProcessEnv} = {}): Promise<FinishedRun> {
	const result = await execa(fakeAgentPath, args, {
		env: options.env,
		stdin: 'ignore',
		reject: false,
		stripFinalNewline: false,
	});
	return {exitCode: result.exitCode, signal: result.signal, stdout: result.stdout, stderr: result.stderr};
}

export type Collected = {readonly text: string; lines(): string[]};

/** Keeps everything a stream says, for assertions after the fact. */
export function collect(stream: NodeJS.ReadableStream): Collected {
	let text = '';
	stream.setEncoding('utf8');
	stream.on('data', (chunk: string) => {
		text += chunk;
	});
	return {
		get text() {
			return text;
		},
		lines: () => text.split('\n').filter((line) => line !== ''),
	};
}

export type StartedAgent = {process: GroupProcess; stdout: Collected; stderr: Collected};

const started = new Set<number>();

/** Starts the fake agent in its own process group, collecting its output. */
export async function startFakeAgent(query: string, ...flags: string[]): Promise<StartedAgent> {
	const child = await spawnInGroup(fakeAgentPath, fakeAgentArgs(query, ...flags));
	started.add(child.pid);
	return {process: child, stdout: collect(child.stdout), stderr: collect(child.stderr)};
}

/** For afterEach: a failed test must not leave runaways behind for the next one. */
export function killStartedAgents(): void {
	for (const pgid of started) signalGroup(pgid, 'SIGKILL');
	started.clear();
}

const hasProc = existsSync('/proc/self/stat');

/** Whether pid is a running process. Zombies are not: they only wait to be reaped. */
export function isProcessRunning(pid: number): boolean {
	if (!hasProc) {
		try {
			process.kill(pid, 0);
			return true;
		} catch {
			return false;
		}
	}

	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
		return state !== 'Z' && state !== 'X';
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
		return false;
	}
}

export type FakeHermesVersion = '0.19.0' | '0.20.0' | '0.20.6' | '0.21.5';

/**
 * What probing the fake agent finds for each release it imitates (FAKE_HERMES_VERSION): 0.19.0
 * has -Q only, 0.20.0 adds --reasoning, 0.20.6 adds --format stream-json, --query-file and
 * --run-budget. Tests that build a runner directly pass both, so they always agree.
 */
export function fakeCapabilities(version: FakeHermesVersion = '0.20.0'): HermesCapabilities {
	const newest = version === '0.20.6' || version === '0.21.5';
	return {
		bin: fakeAgentPath,
		version,
		probed: true,
		flags: {quiet: true, reasoning: version !== '0.19.0', streamJson: newest, queryFile: newest, runBudget: newest, maxTurns: true, toolsets: true, skills: true, worktree: true, source: true, provider: true, ...(version === '0.21.5' ? {cli: true} : {})},
	};
}

/** The environment that makes the fake agent imitate `version`. */
export function fakeVersionEnv(version: FakeHermesVersion = '0.20.0'): NodeJS.ProcessEnv {
	return {...process.env, FAKE_HERMES_VERSION: version};
}

/**
 * Whether SIGTERM (15: bit 14) waits undelivered in the process's shared pending set (Linux).
 * A stopped process (SIGSTOP) keeps it there until SIGCONT or SIGKILL: a test can then read
 * whether the signal was sent, instead of racing its delivery.
 */
export function sigtermPending(pid: number): boolean {
	const mask = /^ShdPnd:\s*([\da-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
	if (mask === undefined) throw new Error(`no ShdPnd line in /proc/${pid}/status`);
	return (BigInt(`0x${mask}`) & (1n << 14n)) !== 0n;
}
