// The cancel row of workload 4 alone:
// the same session as the suite's `keys` (10 idle `term` tasks ahead of 16 endless floods in a
// 200×50 pane), without the focus presses and mprocs, for hermes-delegate (through its runner
// host) and, given another build, that one too, alternating run by run. Prints each run's figures
// and the summary of all, and beside them y → the task's row says cancelled (the host's answer:
// the dashboard shows the cancel before it); numbers, not a test.
//
// `node bench/cancel-keys.mjs` (build first); BENCH_RUNS (4), BENCH_CLI (dist/cli.js of this
// checkout), BENCH_CLI_BEFORE (another build's cli.js, measured too, in the same alternation: a
// change's before and after). About 10 s a run of each build on a quiet machine.
import {existsSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {stopEverything} from './lib/dashboard.mjs';
import {latencySummary, loadText} from './lib/report.mjs';
import {sizes} from './lib/sizes.mjs';
import {keysUnderLoad} from './lib/workloads.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 4);
if (!(Number.isInteger(runs) && runs > 0)) {
	console.error(`bench: BENCH_RUNS=${JSON.stringify(process.env.BENCH_RUNS)} is not a positive whole number; unset it for 4`);
	process.exit(2);
}

const paths = {cli: process.env.BENCH_CLI ?? path.join(here, '..', 'dist', 'cli.js'), agent: path.join(here, 'agents', 'agent.sh')};
if (!existsSync(paths.cli)) {
	console.error(`bench: no ${paths.cli}: build first (npm run build)`);
	process.exit(2);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(signal, () => {
		stopEverything();
		process.exit(130);
	});
}

process.on('exit', stopEverything);

// name → [the dashboard tool it is to the workload, its cli]
const builds = new Map([['hermes-delegate', ['hermes-delegate', paths.cli]]]);
const before = process.env.BENCH_CLI_BEFORE;
if (before !== undefined) {
	if (!existsSync(before)) {
		console.error(`bench: BENCH_CLI_BEFORE=${before} does not exist`);
		process.exit(2);
	}

	builds.set('hermes-delegate (before)', ['hermes-delegate', before]);
}

const tools = [...builds.keys()];
const keys = {...sizes({tiny: false, scale: 1}).keys, presses: 0};
const results = Object.fromEntries(tools.map(tool => [tool, []]));
for (let run = 0; run < runs; run++) {
	for (const tool of run % 2 ? [...tools].reverse() : tools) {
		const [kind, cli] = builds.get(tool);
		const result = await keysUnderLoad(kind, {...paths, cli}, keys);
		results[tool].push(result);
		console.log(`run ${run + 1} ${tool}: load ${result.load.toFixed(2)}; ${result.cancelLatencies.map(ms => ms.toFixed(0)).join(' ')} ms${result.cancelTimeouts ? ` (${result.cancelTimeouts} not shown)` : ''}; row cancelled ${result.finishLatencies.map(ms => ms.toFixed(0)).join(' ')} ms`);
	}
}

for (const tool of tools) {
	const latencies = results[tool].map(result => result.cancelLatencies);
	const timeouts = results[tool].reduce((sum, result) => sum + result.cancelTimeouts, 0);
	console.log(`${tool}: c, y → pane cancelling: ${latencySummary(latencies, timeouts, keys.timeoutMs).text}; ${loadText(results[tool].map(result => result.load))}`);
	const finished = results[tool].map(result => result.finishLatencies);
	console.log(`${tool}: c, y → its row says cancelled (the runner host's answer through the socket): ${latencySummary(finished, 0, keys.timeoutMs).text}`);
}

