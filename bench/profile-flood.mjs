// Where the dashboard's time goes in the flood workload (input for optimising, not a figure to
// compare): `hermes-delegate tui` over 16 flooding agents in a 200×50 tmux pane, under
// `node --cpu-prof`, leaving by itself when the batch is done (--exit-when-done, so that the
// profile is written). The runner host is started with the dashboard's Node flags, so it is
// profiled too: both are printed, each with the top functions and modules by self time, mapped
// through dist/'s source maps back to src/ and to the packages bundled into dist/.
//
// `node bench/profile-flood.mjs` (after a build). BENCH_KIND (flood; or trickle: 32 tasks,
// BENCH_TRICKLE_S seconds at 20 lines/s), BENCH_FLOOD_LINES (100000), BENCH_TASKS (16),
// BENCH_TOP (5); BENCH_KIND=slow-trickle is the trickle at BENCH_TRICKLE_RATE (2) lines/s for
// BENCH_TRICKLE_S (60) seconds, the suite's slow trickle; BENCH_KEEP=1 keeps the .cpuprofile (for
// Chrome DevTools / speedscope).
import {readdirSync, readFileSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {summarise} from './cpu-profile.mjs';
import {goals, startDashboard, stopEverything} from './lib/dashboard.mjs';
import {countFiles, running, waitFor} from './lib/procs.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = process.env;
const kind = env.BENCH_KIND ?? 'flood';
if (!['flood', 'trickle', 'slow-trickle'].includes(kind)) {
	console.error(`bench: BENCH_KIND=${JSON.stringify(kind)} is not flood, trickle or slow-trickle`);
	process.exit(2);
}

const tasks = Number(env.BENCH_TASKS ?? (kind === 'flood' ? 16 : 32));
const lines = Number(env.BENCH_FLOOD_LINES ?? 100_000);
const top = Number(env.BENCH_TOP ?? 5);
const tool = 'hermes-delegate';
const paths = {cli: path.join(here, '..', 'dist', 'cli.js'), agent: path.join(here, 'agents', 'agent.sh')};

const profileDir = mkdtempSync(path.join(tmpdir(), 'hd-profile-'));
process.on('exit', () => {
	stopEverything();
	if (env.BENCH_KEEP === '1') {
		console.log(`kept: ${profileDir}`);
	} else {
		rmSync(profileDir, {recursive: true, force: true});
	}
});

const slow = kind === 'slow-trickle';
const trickleEnv = {BENCH_TRICKLE_S: env.BENCH_TRICKLE_S ?? (slow ? '60' : '20'), ...(slow ? {BENCH_TRICKLE_RATE: env.BENCH_TRICKLE_RATE ?? '2'} : {})};
const session = await startDashboard(tool, paths, goals(slow ? 'trickle' : kind, tasks), {
	env: {BENCH_FLOOD_LINES: String(lines), ...trickleEnv},
	nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
	args: ['--exit-when-done'],
});
const processes = await session.processes();
await waitFor(`the ${kind} to finish`, () => countFiles(path.join(session.state, 'done')) >= tasks, 600_000);
// The host ends once its last client has gone and the batch has settled, and writes its profile then.
await waitFor('the dashboard and its runner host to leave and write their profiles', () => !processes.some(running) && readdirSync(profileDir).length >= processes.length, 60_000);
await session.stop();
// Node names a profile CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile.
for (const name of readdirSync(profileDir).sort()) {
	const part = name.split('.')[3] === String(session.pid) ? 'the dashboard' : 'its runner host';
	const {total, functions, modules} = summarise(JSON.parse(readFileSync(path.join(profileDir, name), 'utf8')), top + 3);
	const line = ([key, ms]) => `  ${ms.toFixed(0).padStart(6)} ms  ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${key}`;
	console.log(`\n${kind} ${tasks}${kind === 'flood' ? ` × ${lines} lines` : ''}, hermes-delegate tui, ${part}: ${(total / 1000).toFixed(2)} s profiled (self time, VM entries in parentheses)`);
	console.log(`\nby module:\n${modules.map(line).join('\n')}`);
	console.log(`\nby function:\n${functions.map(line).join('\n')}`);
}
