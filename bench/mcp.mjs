// Benchmark (numbers, not a test) of `hermes-delegate mcp`, against issue 35's Cost: tools/list
// answered in ≤ 50 ms at the p95; a delegate of 50 tasks returns its plan in ≤ 300 ms; an idle
// server uses ≤ 0.2 % of a core and its RSS stays flat over a session of polling.
// The server is the built CLI (npm run build first), spawned by the SDK's own client, its agents
// the fake Hermes. BENCH_MCP_IDLE_S (default 30) and BENCH_MCP_SESSION_S (default 60; the issue's
// figure is 600) set how long the idle and polling windows are.
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {cpus, loadavg, tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {Client} from '@modelcontextprotocol/client';
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, '..', 'dist', 'cli.js');
const fake = path.join(here, '..', 'dist', 'fake-agent', 'hermes.js');
const idleSeconds = Number(process.env.BENCH_MCP_IDLE_S ?? 30);
const sessionSeconds = Number(process.env.BENCH_MCP_SESSION_S ?? 60);
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
const transport = new StdioClientTransport({command: process.execPath, args: [cli, 'mcp', '--hermes-bin', fake], env: {...process.env, HERMES_HOME: home, XDG_CACHE_HOME: path.join(home, '.cache')}, stderr: 'ignore'});
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

	// delegate of 50 tasks: from the call to the answer with the plan (the host started, the plan on disk).
	const tasks = Array.from({length: 50}, (_, index) => ({goal: `Task ${index} [fake:duration=0.1]`, ...(index % 3 === 0 ? {option: 'deep'} : {})}));
	const delegateMs = [];
	let batchId;
	for (let i = 0; i < 3; i++) {
		const started = performance.now();
		const answer = await client.callTool({name: 'delegate', arguments: {tasks}});
		delegateMs.push(performance.now() - started);
		if (answer.isError) throw new Error(text(answer));
		batchId = JSON.parse(text(answer)).batch_id;
		await client.callTool({name: 'batch_wait', arguments: {batch_id: batchId, timeout_s: 600}}, {timeout: 700_000});
	}

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

	const version = JSON.parse(readFileSync(path.join(here, '..', 'package.json'), 'utf8')).version;
	console.log(`hermes-delegate mcp, ${new Date().toISOString()}: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load ${loadavg().map(value => value.toFixed(2)).join(' ')} at the end, node ${process.version}, hermes-delegate ${version}, protocol ${client.getNegotiatedProtocolVersion()}`);
	console.log(`tools/list (200 asks):            p50 ${percentile(listMs, 0.5).toFixed(1)} ms · p95 ${percentile(listMs, 0.95).toFixed(1)} ms · max ${Math.max(...listMs).toFixed(1)} ms   (target p95 ≤ 50 ms)`);
	console.log(`delegate of 50 tasks (3 batches):  ${delegateMs.map(ms => `${ms.toFixed(0)} ms`).join(' · ')}   (target ≤ 300 ms)`);
	console.log(`idle ${idleSeconds} s:                      ${idlePercent.toFixed(3)} % of a core   (target ≤ 0.2 %)`);
	console.log(`polling ${sessionSeconds} s (batch_status + routes every 2 s): ${sessionPercent.toFixed(2)} % of a core · RSS ${(rss[0] / 1024).toFixed(1)} MiB at the start, peak ${(firstHalf / 1024).toFixed(1)} MiB in the first half, ${(secondHalf / 1024).toFixed(1)} MiB in the second   (target: flat)`);
} finally {
	await client.close();
	rmSync(home, {recursive: true, force: true, maxRetries: 10});
}
