// The dashboard under load (numbers, not a test): `hermes-delegate tui` in a tmux pane with 12
// tasks flooding output, against the same batch of idle tasks. Prints, for each scenario:
// the CPU time of the hermes-delegate process over the measuring window, its peak RSS, the
// frames Ink drew per second (each frame is wrapped in a synchronized-output begin, counted in
// what the pane received), what reached the logs (how fast the agents were drained), keypress
// latency (a key that changes the screen, until capture-pane shows the change) and how long
// quitting took. Run after building: `node bench/tui-load.mjs`.
//
// Settings (environment): BENCH_TASKS (12), BENCH_SECONDS (10, the measuring window),
// BENCH_KEYS (10 presses of each key), BENCH_CLI (dist/cli.js of this checkout),
// BENCH_KEEP=1 keeps the temporary folders. Everything it starts (its own tmux server, the
// dashboard, the agents' process groups) is ended on exit, Ctrl-C included.
import {execFileSync} from 'node:child_process';
import {existsSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, closeSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const env = process.env;
const cli = env.BENCH_CLI ?? fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const hermesBin = fileURLToPath(new URL('./hostile/dispatch.sh', import.meta.url));
const taskCount = Number(env.BENCH_TASKS ?? 12);
const windowSeconds = Number(env.BENCH_SECONDS ?? 10);
const keyPresses = Number(env.BENCH_KEYS ?? 10);
const socket = `tui-load-${process.pid}`;
// tmux leaves its socket file behind after kill-server.
const socketPath = path.join(env.TMUX_TMPDIR || '/tmp', `tmux-${process.getuid()}`, socket);
const session = 'bench';
const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], {encoding: 'utf8'}).trim()) || 100;
// Ink writes this before every frame (synchronized output), and nothing else does.
const frameMarker = Buffer.from('\u001B[?2026h');

const temporary = [];
const pids = new Set();
let cleanedUp = false;

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

// Our own tmux server, without the user's config, and without CI in its environment: Ink
// draws no live frames when it sees CI.
const tmuxEnv = {...env};
delete tmuxEnv.CI;
delete tmuxEnv.CONTINUOUS_INTEGRATION;
function tmux(...args) {
	return execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], {encoding: 'utf8', env: tmuxEnv, stdio: ['ignore', 'pipe', 'pipe']});
}

function screen() {
	return tmux('capture-pane', '-p', '-t', session);
}

function paneValue(format) {
	return tmux('display-message', '-p', '-t', session, format).trim();
}

function cpuTicks(pid) {
	const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
	const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
	// utime and stime are fields 14 and 15 of proc(5); the slice starts at field 3.
	return Number(fields[11]) + Number(fields[12]);
}

function statusKiB(pid, key) {
	const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
	return match ? Number(match[1]) : 0;
}

function alive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

async function waitFor(what, check, timeoutMs = 15_000) {
	const started = Date.now();
	for (;;) {
		const value = check();
		if (value) {
			return value;
		}

		if (Date.now() - started > timeoutMs) {
			throw new Error(`timed out waiting for ${what}`);
		}

		await sleep(20);
	}
}

function countMarkers(file, from, to) {
	if (to <= from) {
		return 0;
	}

	const buffer = Buffer.alloc(to - from);
	const fd = openSync(file, 'r');
	try {
		readSync(fd, buffer, 0, buffer.length, from);
	} finally {
		closeSync(fd);
	}

	let count = 0;
	for (let at = buffer.indexOf(frameMarker); at !== -1; at = buffer.indexOf(frameMarker, at + 1)) {
		count++;
	}

	return count;
}

function fileSize(file) {
	try {
		return statSync(file).size;
	} catch {
		return 0;
	}
}

function runFolder(home) {
	const runs = path.join(home, 'delegate', 'runs');
	const [run] = existsSync(runs) ? readdirSync(runs) : [];
	return run ? path.join(runs, run) : undefined;
}

function logBytes(home) {
	const folder = runFolder(home);
	if (!folder) {
		return 0;
	}

	const logs = path.join(folder, 'logs');
	return existsSync(logs) ? readdirSync(logs).reduce((sum, name) => sum + fileSize(path.join(logs, name)), 0) : 0;
}

/** Process groups the runner recorded as started; the agents lead them. */
function agentGroups(home) {
	const folder = runFolder(home);
	const file = folder && path.join(folder, 'processes.jsonl');
	if (!file || !existsSync(file)) {
		return [];
	}

	return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line)).filter(entry => entry.event === 'started').map(entry => entry.pgid);
}

function groupAlive(pgid) {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch {
		return false;
	}
}

const focusPattern = /(?:› |┃ )(t\d+) /;
const focusOf = text => focusPattern.exec(text)?.[1];
// The third row is the first pane's top border in the grid, a task row in the list.
const layoutOf = text => (/^[┏╭]/.test(text.split('\n')[2] ?? '') ? 'grid' : 'list');

/** Presses `key` and polls the screen until `read` gives something else; milliseconds. */
async function keyLatency(key, read) {
	const before = read(screen());
	const started = performance.now();
	tmux('send-keys', '-t', session, key);
	await waitFor(`${key} to change the screen`, () => {
		const now = read(screen());
		return now !== undefined && now !== before;
	}, 10_000);
	return performance.now() - started;
}

function stats(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
	return {median, max: sorted.at(-1)};
}

async function scenario(name, goal) {
	const home = mkdtempSync(path.join(tmpdir(), 'tui-load-home-'));
	temporary.push(home);
	const tasksFile = path.join(home, 'tasks.json');
	writeFileSync(tasksFile, JSON.stringify(Array.from({length: taskCount}, () => ({goal}))));
	const frames = path.join(home, 'terminal.raw');

	// A placeholder first, so that the pane is kept after the dashboard exits and the pipe
	// that counts frames is in place before the first frame.
	tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '48', 'sleep 3600');
	tmux('set-option', '-t', session, 'remain-on-exit', 'on');
	tmux('pipe-pane', '-t', session, '-O', `cat > '${frames}'`);
	// The shell reports the exit code in a file: tmux does not always reap an exited node.
	const exitFile = path.join(home, 'exit-code');
	const command = `${[process.execPath, cli, 'tui', tasksFile, '-j', String(taskCount), '--hermes-bin', hermesBin].map(word => `'${word}'`).join(' ')}; echo $? > '${exitFile}'`;
	tmux('respawn-pane', '-k', '-t', session, '-e', `HERMES_HOME=${home}`, command);
	const shell = paneValue('#{pane_pid}');
	const pid = await waitFor('the dashboard process', () => Number(execFileSync('ps', ['-o', 'pid=', '--ppid', shell], {encoding: 'utf8'}).trim().split(/\s+/)[0]) || undefined, 5000);
	pids.add(pid);
	const tmuxPid = Number(paneValue('#{pid}'));

	try {
		await waitFor(`${taskCount} running tasks on screen`, () => screen().includes(`● ${taskCount} running`));
		await sleep(2000); // past start-up, into the steady state

		const cpu0 = cpuTicks(pid);
		const tmuxCpu0 = cpuTicks(tmuxPid);
		const frames0 = fileSize(frames);
		const logs0 = logBytes(home);
		const started = performance.now();
		const rssStart = statusKiB(pid, 'VmRSS');
		let rssMax = 0;
		while (performance.now() - started < windowSeconds * 1000) {
			rssMax = Math.max(rssMax, statusKiB(pid, 'VmRSS'));
			await sleep(200);
		}

		const seconds = (performance.now() - started) / 1000;
		const rssEnd = statusKiB(pid, 'VmRSS');
		const cpu = (cpuTicks(pid) - cpu0) / clockTicks;
		const tmuxCpu = (cpuTicks(tmuxPid) - tmuxCpu0) / clockTicks;
		const frames1 = fileSize(frames);
		const drawn = countMarkers(frames, frames0, frames1);
		const drained = logBytes(home) - logs0;

		const tabs = [];
		const layouts = [];
		for (let k = 0; k < keyPresses; k++) {
			tabs.push(await keyLatency('Tab', focusOf));
			await sleep(100 + (k * 37) % 150); // not in step with the frame clock
			layouts.push(await keyLatency('L', layoutOf));
			await sleep(100 + (k * 53) % 150);
		}

		const pollStarted = performance.now();
		screen();
		const pollMs = performance.now() - pollStarted;
		const peak = statusKiB(pid, 'VmHWM');
		const quitStarted = performance.now();
		tmux('send-keys', '-t', session, 'q');
		await waitFor('the quit question', () => screen().includes('Quit?'), 10_000);
		tmux('send-keys', '-t', session, 'y');
		const exitCode = await waitFor('the dashboard to exit', () => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8').trim() : undefined), 30_000);
		const quitMs = performance.now() - quitStarted;
		const leftover = agentGroups(home).filter(groupAlive);

		const tab = stats(tabs);
		const layout = stats(layouts);
		const mib = kib => (kib / 1024).toFixed(0);
		console.log(`\n${name}: ${taskCount} tasks, ${seconds.toFixed(1)} s window`);
		console.log(`  hermes-delegate CPU     ${cpu.toFixed(2)} s = ${((cpu / seconds) * 100).toFixed(0)}% of a core   (tmux server: ${((tmuxCpu / seconds) * 100).toFixed(0)}%)`);
		console.log(`  RSS                     peak ${mib(peak)} MiB (VmHWM); window: ${mib(rssStart)} → ${mib(rssEnd)} MiB, max ${mib(rssMax)} MiB`);
		console.log(`  frames drawn            ${(drawn / seconds).toFixed(1)} /s, ${((frames1 - frames0) / seconds / 1024).toFixed(0)} KiB/s to the terminal`);
		console.log(`  agent output drained    ${(drained / seconds / 1024 / 1024).toFixed(1)} MiB/s into the logs`);
		console.log(`  key → screen, Tab       median ${tab.median.toFixed(0)} ms, max ${tab.max.toFixed(0)} ms (${tabs.length} presses)`);
		console.log(`  key → screen, L         median ${layout.median.toFixed(0)} ms, max ${layout.max.toFixed(0)} ms (${layouts.length} presses)`);
		console.log(`  (one screen poll takes ${pollMs.toFixed(0)} ms: latencies include up to that much)`);
		console.log(`  quit (q, y) → exit      ${quitMs.toFixed(0)} ms, exit code ${exitCode}, agent groups left: ${leftover.length}`);
	} finally {
		stopScenario(pid, home);
	}
}

function stopScenario(pid, home) {
	try {
		tmux('kill-session', '-t', session);
	} catch {
		// already gone
	}

	// A hang-up makes the dashboard stop its tasks; whatever outlives it is ended here.
	const deadline = Date.now() + 5000;
	while (alive(pid) && Date.now() < deadline) {
		execFileSync('sleep', ['0.05']);
	}

	if (alive(pid)) {
		process.kill(pid, 'SIGKILL');
	}

	pids.delete(pid);
	for (const pgid of agentGroups(home)) {
		if (groupAlive(pgid)) {
			try {
				process.kill(-pgid, 'SIGKILL');
			} catch {
				// exited meanwhile
			}
		}
	}
}

function cleanup() {
	if (cleanedUp) {
		return;
	}

	cleanedUp = true;
	for (const pid of pids) {
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			// exited
		}
	}

	for (const home of temporary) {
		for (const pgid of agentGroups(home)) {
			try {
				process.kill(-pgid, 'SIGKILL');
			} catch {
				// exited
			}
		}
	}

	try {
		tmux('kill-server');
	} catch {
		// no server left
	}

	rmSync(socketPath, {force: true});

	if (env.BENCH_KEEP === '1') {
		console.log(`kept: ${temporary.join(' ')}`);
	} else {
		for (const dir of temporary) {
			rmSync(dir, {recursive: true, force: true});
		}
	}
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(signal, () => {
		cleanup();
		process.exit(130);
	});
}

process.on('exit', cleanup);

if (!existsSync(cli)) {
	console.error(`no ${cli}: build first (npm run build)`);
	process.exit(2);
}

console.log(`hermes-delegate tui under load: node ${process.version}, ${readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? '?'} cores, 160x48 tmux pane`);
try {
	await scenario('no load (idle agents)', 'idle');
	await scenario('flood (each agent: endless numbered 90-character lines)', 'flood');
} catch (error) {
	console.error(`bench failed: ${error.message}`);
	try {
		console.error(screen());
	} catch {
		// no screen to show
	}

	process.exitCode = 1;
}
