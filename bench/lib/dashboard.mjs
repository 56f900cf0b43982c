// Runs a dashboard (hermes-delegate `tui`, or mprocs) over a batch of stand-in agents in a 200×50 tmux pane on the suite's own tmux server,
// and hands back what the workloads need: the dashboard's pid (the pane's process: the command is
// exec'd) and, for hermes-delegate, its runner host's (processes()), its screen, keys, and a stop
// that leaves nothing running.
import {execFileSync, spawn} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {agentPids, alive, childrenOf, killGroups, running, sleep, waitFor} from './procs.mjs';

export const columns = 200;
export const rows = 50;

const socket = `hd-bench-${process.pid}`;
// Without CI in the environment: Ink draws no live frames when it sees CI.
const tmuxEnv = {...process.env, LANG: process.env.LANG || 'C.UTF-8'};
delete tmuxEnv.CI;
delete tmuxEnv.CONTINUOUS_INTEGRATION;
delete tmuxEnv.NO_COLOR;
delete tmuxEnv.TMUX;

function tmux(...args) {
	return execFileSync('tmux', ['-u', '-L', socket, '-f', '/dev/null', ...args], {encoding: 'utf8', env: tmuxEnv, stdio: ['ignore', 'pipe', 'pipe']});
}

const quote = word => `'${String(word).replaceAll("'", "'\\''")}'`;
const open = new Set();
/** The tmux control-mode clients running, ended with everything else when the suite stops midway. */
const controlClients = new Set();
let sessions = 0;

/** A state folder for one batch: the agents' pid/ and done/ records, HERMES_HOME, caches. */
export function newState() {
	const state = mkdtempSync(path.join(tmpdir(), 'hd-bench-'));
	mkdirSync(path.join(state, 'pid'));
	mkdirSync(path.join(state, 'done'));
	return state;
}

export const goals = (kind, count) => Array.from({length: count}, (_, i) => `${kind}-${i}`);

/**
 * The dashboard tools: hermes-delegate as users get it (a client in the pane, the batch in its
 * runner host, a process of its own), and mprocs (one process).
 */
const cliOf = (tool, paths) => (tool === 'hermes-delegate' ? paths.cli : undefined);
/** The argument hermes-delegate's runner host is started with (client/launch.ts's hidden command). */
const hostMarker = '__host';

/** The command line (argv) that shows `goals` in the tool's dashboard. */
function dashboardArgv(tool, paths, state, goalList, options) {
	const cli = cliOf(tool, paths);
	if (cli) {
		const tasks = path.join(state, 'tasks.json');
		writeFileSync(tasks, JSON.stringify(goalList.map(goal => ({goal}))));
		return [process.execPath, ...(options.nodeArgs ?? []), cli, 'tui', tasks, '-j', String(goalList.length), '--hermes-bin', paths.agent, ...(options.args ?? [])];
	}

	// mprocs: one proc per task, the same agent with the same arguments hermes-delegate gives it.
	const config = path.join(state, 'mprocs.yaml');
	const procs = goalList.map(goal => `  ${goal}:\n    cmd: [${JSON.stringify(paths.agent)}, "chat", "-q", "${goal}"]\n`).join('');
	writeFileSync(config, `procs:\n${procs}`);
	return [paths.mprocs, '--config', config];
}

/**
 * Starts the dashboard of `tool` over `goalList` (see agents/agent.sh for the kinds). `env`
 * goes to the dashboard and from it to the agents.
 */
export async function startDashboard(tool, paths, goalList, options = {}) {
	const state = newState();
	const name = `s${++sessions}`;
	const env = {BENCH_STATE: state, HERMES_HOME: state, XDG_CACHE_HOME: path.join(state, 'cache'), ...options.env};
	const argv = dashboardArgv(tool, paths, state, goalList, options);
	const command = `cd ${quote(state)} && exec env ${Object.entries(env).map(([key, value]) => quote(`${key}=${value}`)).join(' ')} ${argv.map(quote).join(' ')}`;
	const started = performance.now();
	tmux('new-session', '-d', '-s', name, '-x', String(columns), '-y', String(rows), command);
	tmux('set-option', '-t', name, 'remain-on-exit', 'on');
	// The server stays up between sessions (stopEverything kills it): one exiting because its last
	// session was killed can still take the next new-session's connection ("server exited
	// unexpectedly"), which a control client's slower goodbye made likely.
	tmux('set-option', '-g', 'exit-empty', 'off');
	const pid = Number(tmux('display-message', '-p', '-t', name, '#{pane_pid}').trim());
	let host;
	const session = {
		tool, state, pid, started,
		/**
		 * The processes the tool runs the batch in: the dashboard, and for hermes-delegate its runner
		 * host (the dashboard's child, found by its command line; waited for). The first is the one
		 * in the pane, the one keys go to.
		 */
		async processes() {
			if (tool !== 'hermes-delegate') return [pid];
			host ??= (await waitFor('the runner host', () => childrenOf(pid, hostMarker)[0], 30_000, 10));
			return [pid, host];
		},
		screen: () => tmux('capture-pane', '-p', '-t', name),
		/** True while the dashboard runs; else an error with the pane's last lines (what it said as it ended). */
		assertRunning() {
			if (running(pid)) return true;
			const said = tmux('capture-pane', '-p', '-t', name).trim().split('\n').slice(-6).join(' ⏎ ');
			throw new Error(`${tool} ended early: ${said}`);
		},
		sendKeys: (...keys) => tmux('send-keys', '-t', name, ...keys),
		/** Everything the tool writes to its pane from now on appended to `file`; undefined stops it. */
		pipeOutput: file => (file === undefined ? tmux('pipe-pane', '-t', name) : tmux('pipe-pane', '-t', name, '-O', `cat >> ${quote(file)}`)),
		control: () => controlClient(name),
		async stop() {
			open.delete(session);
			try {
				tmux('kill-session', '-t', name);
			} catch {
				// gone already
			}

			// Shutting down is not what is measured, and a dashboard still winding down would load
			// the next measurement: everything of this batch is ended at once.
			// The runner host leads a process group of its own (setsid): it is found now if it was not
			// asked for, and ended with the rest, before the run folder it writes into is removed.
			host ??= tool === 'hermes-delegate' ? childrenOf(pid, hostMarker)[0] : undefined;
			const ours = host ? [pid, host] : [pid];
			killGroups([...ours, ...agentPids(state)]);
			const deadline = Date.now() + 3000;
			while (ours.some(running) && Date.now() < deadline) {
				await sleep(10);
			}

			// Should anything still write into the run folder (session 30 saw the host do so after its
			// dashboard ended, before the bench ended the host itself), a folder left behind is said,
			// not a failed figure.
			try {
				rmSync(state, {recursive: true, force: true, maxRetries: 5, retryDelay: 50});
			} catch (error) {
				process.stderr.write(`bench: left ${state} behind: ${error.message}\n`);
			}
		},
	};
	open.add(session);
	// The exec'd command may take a moment to replace the shell: wait until it is the tool.
	await waitFor(`${tool} to start`, () => alive(pid) && !/^(sh|dash|bash|env)$/.test(commName(pid)), 10_000, 5);
	return session;
}

/**
 * Any command in a pane of the suite's tmux server (`attach` in the attach workload): its pid,
 * its screen, and close() (the session killed, the process group with it).
 */
export function commandInPane(argv, env, cwd) {
	const name = `p${++sessions}`;
	const command = `cd ${quote(cwd)} && exec env ${Object.entries(env).map(([key, value]) => quote(`${key}=${value}`)).join(' ')} ${argv.map(quote).join(' ')}`;
	tmux('new-session', '-d', '-s', name, '-x', String(columns), '-y', String(rows), command);
	tmux('set-option', '-g', 'exit-empty', 'off');
	const pid = Number(tmux('display-message', '-p', '-t', name, '#{pane_pid}').trim());
	return {
		name, pid,
		screen: () => tmux('capture-pane', '-p', '-t', name),
		close() {
			try {
				tmux('kill-session', '-t', name);
			} catch {
				// gone already
			}

			killGroups([pid]);
		},
	};
}

/**
 * The session through a tmux control-mode client (`tmux -C`), kept open: keys and captures are
 * commands on its stdin instead of a tmux process spawned for each, which on a loaded machine
 * costs 5–11 ms apiece and would count in every latency. The pane's output is not sent to it
 * (no-output), so watching costs tmux nothing. Everything async: `await sendKeys(…)` resolves
 * once tmux has written the keys to the pane, `await screen()` with the pane's text.
 */
export function controlClient(name) {
	const child = spawn('tmux', ['-u', '-L', socket, '-f', '/dev/null', '-C', 'attach-session', '-t', name], {env: tmuxEnv, stdio: ['pipe', 'pipe', 'ignore']});
	controlClients.add(child);
	child.once('exit', () => controlClients.delete(child));
	// The attach itself answers first, with a %begin/%end block like every command.
	const waiting = [{resolve() {}, reject() {}}];
	// A block ends at the %end/%error line with its %begin's time, number and flags: a line of the
	// captured screen may itself begin with "%end ".
	let block;
	let rest = '';
	let gone;
	const fail = error => {
		gone ??= error;
		for (const entry of waiting.splice(0)) entry.reject(gone);
	};

	child.on('error', fail);
	child.on('close', () => fail(new Error(`tmux control client for ${name} exited`)));
	child.stdin.on('error', fail);
	child.stdout.setEncoding('utf8');
	child.stdout.on('data', text => {
		const lines = (rest + text).split('\n');
		rest = lines.pop();
		for (const line of lines) {
			if (block === undefined && line.startsWith('%begin ')) {
				block = {guard: line.slice('%begin '.length), lines: []};
			} else if (block !== undefined && (line === `%end ${block.guard}` || line === `%error ${block.guard}`)) {
				const entry = waiting.shift();
				if (line.startsWith('%end ')) entry?.resolve(block.lines.join('\n'));
				else entry?.reject(new Error(`tmux: ${block.lines.join(' ')}`));
				block = undefined;
			} else if (block !== undefined) {
				block.lines.push(line);
			}
			// Anything else is a notification (%session-changed, %layout-change…): not asked for.
		}
	});
	// Each command is answered in order; one left unanswered (a block tmux sent unasked would put
	// every later answer one off) would leave its caller waiting for ever (seen once: the suite
	// hung in the keys workload under mprocs, at load 10). Past this, the client counts as gone
	// and every waiting command fails: the workload is reported failed, the suite goes on.
	const answerWithinMs = 15_000;
	const command = text => new Promise((resolve, reject) => {
		if (gone) {
			reject(gone);
			return;
		}

		const timer = setTimeout(() => {
			fail(new Error(`tmux control client for ${name}: no answer to \`${text.split(' ')[0]}\` within ${answerWithinMs / 1000} s`));
			child.kill();
		}, answerWithinMs);
		const settle = then => value => {
			clearTimeout(timer);
			then(value);
		};

		waiting.push({resolve: settle(resolve), reject: settle(reject)});
		child.stdin.write(`${text}\n`);
	});
	// One command per line: a key with a line break (or any control character) would be two.
	const quoted = word => {
		if (/[\u0000-\u001F\u007F]/.test(String(word))) throw new Error(`controlClient: key ${JSON.stringify(word)} has a control character; name it (Enter, Tab, C-c…)`);
		return `'${String(word).replaceAll("'", "'\\''")}'`;
	};

	const ready = command('refresh-client -f no-output');
	return {
		ready,
		sendKeys: async (...keys) => command(`send-keys -t ${name} ${keys.map(quoted).join(' ')}`),
		screen: async () => command(`capture-pane -p -t ${name}`),
		close() {
			child.stdin.end();
			child.kill();
		},
	};
}

function commName(pid) {
	try {
		return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
	} catch {
		return '';
	}
}

/** For the exit path: kills whatever sessions are still open, and the tmux server. */
export function stopEverything() {
	for (const session of open) {
		killGroups([session.pid, ...childrenOf(session.pid, hostMarker), ...agentPids(session.state)]);
		rmSync(session.state, {recursive: true, force: true, maxRetries: 20, retryDelay: 50});
	}

	open.clear();
	for (const child of controlClients) child.kill();
	try {
		tmux('kill-server');
	} catch {
		// no server
	}

	rmSync(path.join(process.env.TMUX_TMPDIR || '/tmp', `tmux-${process.getuid()}`, socket), {force: true});
}
