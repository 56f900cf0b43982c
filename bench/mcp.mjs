// Benchmark (numbers, not a test) of `hermes-delegate mcp`, against issue 35's Cost: tools/list
// answered in ≤ 50 ms at the p95; a delegate of 50 tasks returns its plan in ≤ 300 ms; an idle
// server uses ≤ 0.2 % of a core and its RSS stays flat over a session of polling.
// The server is the built CLI (npm run build first), spawned by the SDK's own client, its agents
// the fake Hermes. BENCH_MCP_IDLE_S (default 30) and BENCH_MCP_SESSION_S (default 60) set how long
// the idle and polling windows are. Options:
//   --soak            the issue's 10-minute session of polling (BENCH_MCP_SESSION_S=600), the
//                     server's RSS printed minute by minute
//   --delegates N     how many delegates of 50 tasks are timed (default 3; medians want ≥ 5)
//   --delegate-only   time the delegates and stop (no idle or polling window)
//   --compare-detach  after each delegate, time `run --detach` of the same 50 tasks (the same
//                     runner-host start, from a fresh CLI process): a ratio that a loaded
//                     machine moves less than either figure
//   --cli PATH        the cli.js to measure (default dist/cli.js): a copy of an older build
//                     alternated with the current one compares them in the same minutes
import {execFileSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {cpus, loadavg, tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {Client} from '@modelcontextprotocol/client';
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio';
import {median} from './lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const {values: flags} = parseArgs({options: {
	'soak': {type: 'boolean', default: false},
	'delegates': {type: 'string', default: '3'},
	'delegate-only': {type: 'boolean', default: false},
	'compare-detach': {type: 'boolean', default: false},
	'cli': {type: 'string', default: path.join(here, '..', 'dist', 'cli.js')},
}});
const cli = path.resolve(flags.cli);
const fake = path.join(path.dirname(cli), 'fake-agent', 'hermes.js');
const idleSeconds = Number(process.env.BENCH_MCP_IDLE_S ?? 30);
const sessionSeconds = Number(process.env.BENCH_MCP_SESSION_S ?? (flags.soak ? 600 : 60));
const delegates = Number(flags.delegates);
const clockTicks = 100;

const home = mkdtempSync(path.join(tmpdir(), 'hd-bench-mcp-'));
writeFileSync(path.join(home, 'config.yaml'), `delegation:
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
      default: fast
`);

/** CPU seconds (user + system) and RSS (KiB) of a process, from /proc. */
function usage(pid) {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	const cpu = (Number(fields[11]) + Number(fields[12])) / clockTicks;
	const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
	return {cpu, rss};
}

const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(p * values.length) - 1)];
const sleep = ms => new Promise(resolve => {
	setTimeout(resolve, ms);
});
const text = result => result.content.map(part => part.text ?? '').join('');

const client = new Client({name: 'bench', version: '1'});
const benchEnv = {...process.env, HERMES_HOME: home, XDG_CACHE_HOME: path.join(home, '.cache')};
const transport = new StdioClientTransport({command: process.execPath, args: [cli, 'mcp', '--hermes-bin', fake], env: benchEnv, stderr: 'ignore'});
try {
	await client.connect(transport);
	const {pid} = transport;

	// tools/list: the list is rebuilt from the registered tools each time; 200 asks after 10 to warm up.
	for (let i = 0; i < 10; i++) await client.listTools();
	const listMs = [];
	for (let i = 0; i < 200; i++) {
		const started = performance.now();
		await client.listTools();
		listMs.push(performance.now() - started);
	}

	// delegate of 50 tasks: from the call to the answer with the plan (the host started, the plan on
	// disk). Each batch is cancelled once timed (what is timed is its start, and 50 agents each
	// starting a Node process would only load the machine for the next one), then waited for.
	const tasks = Array.from({length: 50}, (_, index) => ({goal: `Task ${index} [fake:duration=0.1]`, ...(index % 3 === 0 ? {option: 'deep'} : {})}));
	const tasksFile = path.join(home, 'tasks.json');
	writeFileSync(tasksFile, JSON.stringify(tasks));
	const delegateMs = [];
	const detachMs = [];
	let batchId;
	for (let i = 0; i < delegates; i++) {
		const started = performance.now();
		const answer = await client.callTool({name: 'delegate', arguments: {tasks}});
		delegateMs.push(performance.now() - started);
		if (answer.isError) throw new Error(text(answer));
		batchId = JSON.parse(text(answer)).batch_id;
		await client.callTool({name: 'cancel', arguments: {batch_id: batchId}});
		await client.callTool({name: 'batch_wait', arguments: {batch_id: batchId, timeout_s: 600}}, {timeout: 700_000});
		if (flags['compare-detach']) {
			const at = performance.now();
			const runId = execFileSync(process.execPath, [cli, 'run', '--detach', '--hermes-bin', fake, tasksFile], {env: benchEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore']}).trim();
			detachMs.push(performance.now() - at);
			await client.callTool({name: 'cancel', arguments: {batch_id: runId}});
			await client.callTool({name: 'batch_wait', arguments: {batch_id: runId, timeout_s: 600}}, {timeout: 700_000});
		}
	}

	const version = JSON.parse(readFileSync(path.join(here, '..', 'package.json'), 'utf8')).version;
	const load = () => loadavg().map(value => value.toFixed(2)).join(' ');
	console.log(`hermes-delegate mcp, ${new Date().toISOString()}: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), node ${process.version}, hermes-delegate ${version} (${cli}), protocol ${client.getNegotiatedProtocolVersion()}`);
	console.log(`tools/list (200 asks):            p50 ${percentile(listMs, 0.5).toFixed(1)} ms · p95 ${percentile(listMs, 0.95).toFixed(1)} ms · max ${Math.max(...listMs).toFixed(1)} ms   (target p95 ≤ 50 ms)`);
	console.log(`delegate of 50 tasks (${delegates} batches):  median ${median(delegateMs).toFixed(0)} ms: ${delegateMs.map(ms => `${ms.toFixed(0)}`).join(' · ')} ms   (target ≤ 300 ms); load ${load()}`);
	if (flags['compare-detach']) {
		const ratios = delegateMs.map((ms, index) => ms / detachMs[index]);
		console.log(`run --detach of the same (each right after a delegate): median ${median(detachMs).toFixed(0)} ms: ${detachMs.map(ms => `${ms.toFixed(0)}`).join(' · ')} ms; delegate / run --detach, median of pairs: ${median(ratios).toFixed(2)}`);
	}

	if (!flags['delegate-only']) await idleAndPolling(pid, batchId, load);
} finally {
	await client.close();
	rmSync(home, {recursive: true, force: true, maxRetries: 10});
}

/** Idle, then a session of polling: the server's CPU and RSS from /proc. */
async function idleAndPolling(pid, batchId, load) {
	// Idle: connected, nothing asked.
	const idleStart = usage(pid);
	const idleAt = performance.now();
	await sleep(idleSeconds * 1000);
	const idleEnd = usage(pid);
	const idlePercent = (100 * (idleEnd.cpu - idleStart.cpu)) / ((performance.now() - idleAt) / 1000);

	// A session of polling: batch_status of the last batch and routes, every 2 s.
	const rss = [usage(pid).rss];
	const sessionStart = usage(pid);
	const sessionAt = performance.now();
	while (performance.now() - sessionAt < sessionSeconds * 1000) {
		await client.callTool({name: 'batch_status', arguments: {batch_id: batchId}});
		await client.callTool({name: 'routes', arguments: {}});
		rss.push(usage(pid).rss);
		await sleep(2000);
	}

	const sessionEnd = usage(pid);
	const sessionPercent = (100 * (sessionEnd.cpu - sessionStart.cpu)) / ((performance.now() - sessionAt) / 1000);
	const half = Math.floor(rss.length / 2);
	const firstHalf = Math.max(...rss.slice(0, half));
	const secondHalf = Math.max(...rss.slice(half));

	if (flags.soak) {
		// Every 2 s a sample: minute by minute, the highest RSS of that minute.
		const perMinute = [];
		for (let at = 0; at < rss.length; at += 30) perMinute.push((Math.max(...rss.slice(at, at + 30)) / 1024).toFixed(1));
		console.log(`RSS by minute (MiB, the highest of each): ${perMinute.join(' · ')}`);
	}

	// The runner host the server keeps started ahead of the next delegate (src/mcp/warm-host.ts), if any.
	const spares = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).filter(child => {
		try {
			return readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').includes('__host');
		} catch {
			return false;
		}
	});
	console.log(`runner hosts waiting for a batch: ${spares.length}${spares.length > 0 ? `, RSS ${spares.map(child => (usage(child).rss / 1024).toFixed(1)).join(', ')} MiB, CPU ${spares.map(child => usage(child).cpu.toFixed(2)).join(', ')} s since their start` : ''}`);
	console.log(`load at the end: ${load()}`);
	console.log(`idle ${idleSeconds} s:                      ${idlePercent.toFixed(3)} % of a core   (target ≤ 0.2 %)`);
	console.log(`polling ${sessionSeconds} s (batch_status + routes every 2 s): ${sessionPercent.toFixed(2)} % of a core · RSS ${(rss[0] / 1024).toFixed(1)} MiB at the start, peak ${(firstHalf / 1024).toFixed(1)} MiB in the first half, ${(secondHalf / 1024).toFixed(1)} MiB in the second   (target: flat)`);
}
