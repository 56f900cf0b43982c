// The hostile agents of bench/hostile/ as real processes for tests, and a clean-up that ends
// every process a test learnt about (agents, and what they let escape) even when the test failed.
import {fileURLToPath} from 'node:url';
import {processStartTicks, signalGroup, spawnInGroup, type GroupProcess} from '../../src/core/process/group.js';
import {collect, type Collected} from './processes.js';
import {waitFor} from './wait-for.js';

export function hostileAgent(name: string): string {
	return fileURLToPath(new URL(`../../bench/hostile/${name}`, import.meta.url));
}

type Known = {pid: number; startTicks: number | null; group: boolean};
const known: Known[] = [];

/** Remember a process (or, with `group`, a process group) for `killKnownProcesses`. */
export function remember(pid: number, options: {group?: boolean} = {}): void {
	known.push({pid, startTicks: processStartTicks(pid), group: options.group ?? false});
}

/** For afterEach: SIGKILL everything remembered that is still the same process. */
export function killKnownProcesses(): void {
	for (const {pid, startTicks, group} of known.splice(0)) {
		if (group) {
			signalGroup(pid, 'SIGKILL');
		} else if (startTicks !== null && processStartTicks(pid) === startTicks) {
			process.kill(pid, 'SIGKILL');
		}
	}
}

export type HostileAgent = {process: GroupProcess; stdout: Collected; stderr: Collected};

export async function startHostile(name: string, env: NodeJS.ProcessEnv = {}): Promise<HostileAgent> {
	const child = await spawnInGroup(hostileAgent(name), [], {env: {...process.env, ...env}});
	remember(child.pid, {group: true});
	return {process: child, stdout: collect(child.stdout), stderr: collect(child.stderr)};
}

/** Waits for the agent to print `pattern` (one number captured) and remembers that pid. */
export async function announcedPid(agent: HostileAgent, pattern: RegExp): Promise<number> {
	await waitFor(() => pattern.test(agent.stdout.text), {message: `the agent to print ${pattern}`});
	const pid = Number(pattern.exec(agent.stdout.text)![1]);
	remember(pid);
	return pid;
}
