// Tasks on worker hosts through NATS. Everything on this one
// machine, over loopback: a nats-server with JetStream (its own port and store), worker processes
// of the built CLI (each its own HERMES_HOME, the fake agent), and the runner host.
//  1. 200 fake tasks on 4 workers (`run --nats`) against the same 200 on one host (`run`), at the
//     same total concurrency: wall time of each.
//  2. Per-task overhead of the remote path, one task at a time (-j 1): runs of 1 and of 20 short
//     tasks, remote and local; the overhead per task is the remote run's growth from 1 to 20 tasks
//     minus the local one's, over 19 (offer, claim, reports and result through NATS), apart from the
//     remote run's fixed start (reaching NATS, finding the live workers: 1-task remote − 1-task local).
//  3. Output line → runner host: a runner host in this process (src/ bundled with rolldown) takes
//     the output of agents that stamp each line with the time they print it (bench/agents/
//     timestamp-agent.mjs), run on a worker; the latency is taken where a chunk enters the runner
//     host's output buffer (what the dashboard reads). p50/p95/max.
// The machine is shared: the load average is printed at the start and the end; say it with the figures.
// Run: `npm run bench:nats` (builds first if needed). BENCH_TASKS (200), BENCH_WORKERS (4), BENCH_SLOTS
// per worker (8), BENCH_DURATION seconds per task (0.5), BENCH_SERIAL (20), BENCH_STAMPED (4) tasks.
import {execFileSync, spawn} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:net';
import {cpus, loadavg, tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {rolldown} from 'rolldown';
import {percentile} from './lib/stats.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const cli = path.join(root, 'dist', 'cli.js');
const fake = path.join(root, 'dist', 'fake-agent', 'hermes.js');
const stampAgent = path.join(root, 'bench', 'agents', 'timestamp-agent.mjs');
const natsServer = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find(file => existsSync(file));
if (!existsSync(cli)) throw new Error('run `npm run build` first');
if (!natsServer) throw new Error('nats-server is not installed (apt-get install nats-server)');

const taskCount = Number(process.env.BENCH_TASKS ?? 200);
const workerCount = Number(process.env.BENCH_WORKERS ?? 4);
const slots = Number(process.env.BENCH_SLOTS ?? 8);
const duration = Number(process.env.BENCH_DURATION ?? 0.5);
const serialCount = Number(process.env.BENCH_SERIAL ?? 20);
const stampedCount = Number(process.env.BENCH_STAMPED ?? 4);

const work = mkdtempSync(path.join(tmpdir(), 'hd-nats-bench-'));
const children = [];
process.on('exit', () => {
	for (const child of children) child.kill('SIGKILL');
	rmSync(work, {recursive: true, force: true});
});

const load = () => loadavg().map(value => value.toFixed(2)).join(' ');
const loadAtStart = load();

async function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const {port} = server.address();
			server.close(() => resolve(port));
		});
	});
}

function waitForLine(stream, pattern, what) {
	return new Promise((resolve, reject) => {
		let seen = '';
		const onData = chunk => {
			seen += chunk.toString();
			if (pattern.test(seen)) {
				stream.off('data', onData);
				resolve();
			}
		};

		stream.on('data', onData);
		stream.once('end', () => reject(new Error(`${what} ended before saying ${pattern}:\n${seen}`)));
	});
}

function home(name) {
	const dir = path.join(work, name);
	mkdirSync(dir, {recursive: true});
	return dir;
}

/** A command of the built CLI to its end: wall ms, exit code, stdout. */
async function timed(args, env) {
	const started = performance.now();
	const child = spawn(process.execPath, [cli, ...args], {env: {...process.env, ...env}, stdio: ['ignore', 'pipe', 'pipe']});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', chunk => {
		stdout += chunk;
	});
	child.stderr.on('data', chunk => {
		stderr += chunk;
	});
	const code = await new Promise(resolve => child.once('exit', resolve));
	return {ms: performance.now() - started, code, stdout, stderr};
}

function tasksFile(name, count, goal) {
	const file = path.join(work, `${name}.json`);
	writeFileSync(file, JSON.stringify(Array.from({length: count}, (_, index) => ({goal: goal(index)}))));
	return file;
}

function succeeded(run, count) {
	const report = JSON.parse(run.stdout);
	const ok = report.results.filter(result => result.status === 'succeeded').length;
	if (ok !== count) throw new Error(`${ok}/${count} succeeded: ${report.summary}\n${run.stderr.slice(-2000)}`);
	return report;
}

// The server and the workers.
const port = await freePort();
const url = `nats://127.0.0.1:${port}`;
const server = spawn(natsServer, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', home('store')], {stdio: ['ignore', 'pipe', 'pipe']});
children.push(server);
await waitForLine(server.stderr, /Server is ready/, 'nats-server');
async function startWorker(name, bin, count) {
	const worker = spawn(process.execPath, [cli, 'worker', '--nats', url, '--name', name, '--hermes-bin', bin, '-j', String(count)], {env: {...process.env, HERMES_HOME: home(`worker-${name}`), XDG_CACHE_HOME: home(`cache-${name}`)}, stdio: ['ignore', 'ignore', 'pipe']});
	children.push(worker);
	await waitForLine(worker.stderr, /serving nats:/, `worker ${name}`);
	return worker;
}

const workers = await Promise.all(Array.from({length: workerCount}, (_, index) => startWorker(`w${index + 1}`, fake, slots)));
const total = workerCount * slots;
const runnerEnv = {HERMES_HOME: home('runner')};
const localEnv = {HERMES_HOME: home('local'), XDG_CACHE_HOME: home('cache-local')};

// 1. Throughput.
const batch = tasksFile('batch', taskCount, index => `task ${index} [fake:duration=${duration}] [fake:steps=2]`);
const local = await timed(['run', '--hermes-bin', fake, '-j', String(total), batch], localEnv);
succeeded(local, taskCount);
const remote = await timed(['run', '--nats', url, '-j', String(total), batch], runnerEnv);
const remoteReport = succeeded(remote, taskCount);
const perHost = new Map();
for (const result of remoteReport.results) perHost.set(result.host, (perHost.get(result.host) ?? 0) + 1);
const byHost = [...perHost].map(([host, count]) => `${host} ${count}`).join(', ');

// 2. Per-task overhead, one at a time.
const quick = index => `quick ${index} [fake:duration=0.05] [fake:steps=1]`;
const serial = tasksFile('serial', serialCount, quick);
const single = tasksFile('single', 1, quick);
// Medians of BENCH_RUNS (3) runs of each: on a shared machine the noise is as large as the overhead.
const medianRun = async (args, env, count) => {
	const times = [];
	for (let run = 0; run < repeats; run++) {
		const result = await timed(args, env);
		succeeded(result, count);
		times.push(result.ms);
	}

	return {ms: percentile(times, 50), all: times};
};

const repeats = Number(process.env.BENCH_RUNS ?? 3);
const serialLocal = await medianRun(['run', '--hermes-bin', fake, '-j', '1', serial], localEnv, serialCount);
const serialRemote = await medianRun(['run', '--nats', url, '-j', '1', serial], runnerEnv, serialCount);
const singleLocal = await medianRun(['run', '--hermes-bin', fake, single], localEnv, 1);
const singleRemote = await medianRun(['run', '--nats', url, single], runnerEnv, 1);

// 3. Output line → runner host, with a runner host in this process.
for (const worker of workers) worker.kill('SIGTERM');
await startWorker('stamper', stampAgent, stampedCount);
const modules = path.join(root, `.nats-bench-${process.pid}`);
process.on('exit', () => rmSync(modules, {recursive: true, force: true}));
const bundle = await rolldown({
	input: {runner: 'src/core/run/runner.ts', executor: 'src/distributed/executor.ts', fleet: 'src/distributed/fleet.ts', connection: 'src/distributed/connection.ts', folder: 'src/core/run-folder/folder.ts'},
	cwd: root, platform: 'node', logLevel: 'warn', external: [/^node:/, 'better-sqlite3', 'write-file-atomic'],
});
await bundle.write({dir: modules, format: 'esm'});
await bundle.close();
const load$ = name => import(pathToFileURL(path.join(modules, `${name}.js`)).href);
const [{BatchRunner}, {natsExecutor}, {Fleet, fleetCapabilities}, {openNats}, {createRunFolder}] = await Promise.all(['runner', 'executor', 'fleet', 'connection', 'folder'].map(load$));
const nats = await openNats(url, 'bench runner host');
const fleet = await Fleet.discover(nats, () => undefined);
const capabilities = fleetCapabilities(fleet.live().filter(worker => worker.name === 'stamper'));
const folder = createRunFolder(home('in-process'));
const latencies = [];
const base = natsExecutor({nats, fleet, batch: folder.runId, capabilities, graceMs: 1000, logLimitBytes: 0, display: true, log: () => undefined});
const executor = {
	...base,
	newOutput(onTelemetry) {
		const attemptOutput = base.newOutput(onTelemetry);
		const push = attemptOutput.output.pushStdout.bind(attemptOutput.output);
		attemptOutput.output.pushStdout = chunk => {
			const now = performance.timeOrigin + performance.now();
			for (const match of chunk.toString().matchAll(/^TS (\d+\.\d+)$/gm)) latencies.push(now - Number(match[1]));
			push(chunk);
		};
		return attemptOutput;
	},
};
const planned = Array.from({length: stampedCount}, (_, index) => ({
	index, id: `t${String(index + 1).padStart(2, '0')}`, spec: {goal: `stamped ${index}`},
	decision: {route: null, refused: false, reason: 'bench'},
	effective: {model: null, provider: null, reasoning_effort: null, service_tier: null, profile: null},
	launch: {max_turns: null, prompt_file: false, base_url: null}, warnings: [],
}));
const runner = new BatchRunner({mode: 'default', tasks: planned, warnings: []}, {hermesBin: 'hermes', capabilities, folder, graceMs: 1000, concurrency: stampedCount, env: process.env, executor});
await runner.start();
await executor.close();
fleet.close();
await nats.close();

const seconds = ms => `${(ms / 1000).toFixed(2)} s`;
const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(`tasks on worker hosts through NATS (loopback, one machine) — ${new Date().toISOString()}
  ${cpus().length} cores (${cpu}), node ${process.version}, ${execFileSync(natsServer, ['--version'], {encoding: 'utf8'}).trim()}
  load average at start ${loadAtStart}, at end ${load()} (a shared machine: other work ran meanwhile)

1. ${taskCount} fake tasks (${duration} s, 2 steps each), concurrency ${total}:
   one host (run):                         ${seconds(local.ms)}
   ${workerCount} workers × ${slots} slots (run --nats):      ${seconds(remote.ms)}   (${byHost})
2. short tasks one at a time (-j 1), 1 task / ${serialCount} tasks, medians of ${repeats} runs:
   one host: ${seconds(singleLocal.ms)} / ${seconds(serialLocal.ms)}, through NATS: ${seconds(singleRemote.ms)} / ${seconds(serialRemote.ms)}
   per-task overhead of the remote path: ${(((serialRemote.ms - singleRemote.ms) - (serialLocal.ms - singleLocal.ms)) / (serialCount - 1)).toFixed(0)} ms; fixed start of a remote run: ${seconds(singleRemote.ms - singleLocal.ms)}
3. output line → runner host, ${latencies.length} lines of ${stampedCount} agents on one worker:
   p50 ${percentile(latencies, 50).toFixed(1)} ms · p95 ${percentile(latencies, 95).toFixed(1)} ms · max ${Math.max(...latencies).toFixed(1)} ms (target p95 ≤ 100 ms)`);
process.exit(0);
