// Where a key's time goes under a flood (input for optimising, not a figure to compare): the keys
// workload's session (10 idle `term` tasks ahead of 16 endless floods, 200×50 pane, a tmux
// control-mode client for keys and captures), its Tab presses and then its cancels (c, the
// question, y → the header counts one fewer running), with the dashboard traced from inside
// (bench/lib/key-trace.mjs, on the clock both processes share). Each press, in ms:
//   total        the key sent → the bench sees its effect (what the suite's row 5 measures)
//   toTmux       → tmux has written the key to the pane
//   toRead       → the dashboard reads it; meanwhile the dashboard's main thread was busyBefore on a
//                core (doing something else), waitBefore runnable but waiting for one, and asleep
//                neither (after toTmux: blocked, e.g. on a helper thread)
//   handler      the read's own call (Ink's parser, the key table, the store)
//   toOut        the read → the end of the first write to the terminal after it: the key's frame
//                (React renders it in a microtask right after the read), of which frameCpu on a
//                core and frameWait waiting for one; outBlock: how long that write blocked
//   toSeen       that write → the bench sees the change (tmux, the capture)
//   requestAfterFrame  y only: the cancel request to the runner host, after (+) or before (−) it
// For the slowest presses it lists what the main thread ran between the key sent and its read.
//
// `node bench/trace-keys.mjs` (after a build). BENCH_CLI (this checkout's dist/cli.js),
// BENCH_PRESSES (50 Tab), BENCH_CANCELS (10), BENCH_AGENT_NICE (the tui's --agent-nice; its default
// when unset). Experiments: BENCH_CPU_PROF=1, BENCH_POLL_MS, BENCH_HOST_NICE (below), and
// KEY_TRACE_V8 / KEY_TRACE_STACKS (bench/lib/key-trace.mjs).
import {execFileSync} from 'node:child_process';
import {mkdtempSync, readdirSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {goals, startDashboard, stopEverything} from './lib/dashboard.mjs';
import {countFiles, cpuSecondsOf, loadNow, running, sleep, waitFor} from './lib/procs.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = process.env;
const presses = Number(env.BENCH_PRESSES ?? 50);
const cancels = Number(env.BENCH_CANCELS ?? 10);
const floods = 16;
const paths = {cli: env.BENCH_CLI ?? path.join(here, '..', 'dist', 'cli.js'), agent: path.join(here, 'agents', 'agent.sh')};
const traceDir = mkdtempSync(path.join(tmpdir(), 'hd-key-trace-'));
const traceFile = path.join(traceDir, 'trace.jsonl');
// BENCH_CPU_PROF=1: the dashboard also runs under --cpu-prof, and the samples inside each key's
// frame (its read → the end of the first write after it) are summed by function.
const profiling = env.BENCH_CPU_PROF === '1';
const profileArgs = profiling ? ['--cpu-prof', `--cpu-prof-dir=${traceDir}`, '--cpu-prof-interval', '250'] : [];
const now = () => Number(process.hrtime.bigint()) / 1e6;
const schedstatOf = pid => readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').slice(0, 2).map(ns => Number(ns) / 1e6);

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(signal, () => {
		stopEverything();
		process.exit(130);
	});
}

process.on('exit', stopEverything);

const focusOf = screen => /(?:› |┃ )(t\d+) /.exec(screen)?.[1];
const runningOf = screen => {
	const match = /● (\d+) running/.exec(screen.split('\n').slice(0, 3).join('\n'));
	return match ? Number(match[1]) : undefined;
};

// BENCH_POLL_MS (0): a pause between two captures while waiting for a key's effect, as if the
// suite's back-to-back captures (bench/lib/workloads.mjs) took the dashboard's CPU. They take
// little: this process and tmux use 8–10 % of a core each while pressing (printed).
const pollMs = Number(env.BENCH_POLL_MS ?? 0);
async function until(check, timeoutMs = 5000) {
	const started = performance.now();
	while (performance.now() - started < timeoutMs) {
		const value = await check();
		if (value) return value;
		if (pollMs > 0) await sleep(pollMs);
	}

	return undefined;
}

/** CPU seconds so far of this process and of the tmux processes of the bench's socket (server, control client). */
function instrumentCpu() {
	const tmux = readdirSync('/proc').filter(name => /^\d+$/.test(name)).filter(pid => {
		try {
			const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
			return argv[0]?.endsWith('tmux') && argv.includes(`hd-bench-${process.pid}`);
		} catch {
			return false;
		}
	});
	const usage = process.cpuUsage();
	return {self: (usage.user + usage.system) / 1e6, tmux: cpuSecondsOf(tmux.map(Number))};
}

const session = await startDashboard('hermes-delegate', paths, [...goals('term', cancels), ...goals('endless', floods)], {args: env.BENCH_AGENT_NICE === undefined ? [] : ['--agent-nice', env.BENCH_AGENT_NICE], nodeArgs: [...profileArgs, '--import', path.join(here, 'lib', 'key-trace.mjs')], env: {KEY_TRACE_FILE: traceFile, KEY_TRACE_STACKS: env.KEY_TRACE_STACKS ?? '', KEY_TRACE_V8: env.KEY_TRACE_V8 ?? ''}});
const control = session.control();
const timed = []; // {kind, key, send, acked, seen, sched}
const loads = [];
let instrument = '';
try {
	await control.ready;
	await waitFor(`${floods} agents flooding`, () => countFiles(path.join(session.state, 'pid')) >= floods + cancels && focusOf(session.screen()));
	// BENCH_HOST_NICE=N (an experiment): every thread of the runner host reniced to N.
	if (env.BENCH_HOST_NICE !== undefined) {
		const [, host] = await session.processes();
		for (const thread of readdirSync(`/proc/${host}/task`)) execFileSync('renice', ['-n', env.BENCH_HOST_NICE, '-p', thread], {stdio: 'ignore'});
	}

	await sleep(2000);
	loads.push(loadNow());
	const instrumentFrom = {...instrumentCpu(), at: now()};
	const press = async (kind, key, changed) => {
		const sched = schedstatOf(session.pid);
		const send = now();
		await control.sendKeys(key);
		const acked = now();
		const shown = await until(async () => changed(await control.screen()));
		timed.push({kind, key, send, acked, seen: shown ? now() : undefined, sched});
	};

	for (let index = 0; index < presses; index++) {
		const before = await until(async () => focusOf(await control.screen()));
		await press('focus', 'Tab', screen => {
			const focus = focusOf(screen);
			return focus !== undefined && focus !== before;
		});
		await sleep(60 + ((index * 37) % 120));
	}

	loads.push(loadNow());
	for (let index = 1; index <= cancels; index++) {
		const target = `t${String(index).padStart(2, '0')}`;
		for (let step = 0; step <= floods + cancels && (await until(async () => focusOf(await control.screen()))) !== target; step++) {
			const before = focusOf(await control.screen());
			await control.sendKeys('Tab');
			await until(async () => {
				const focus = focusOf(await control.screen());
				return focus !== undefined && focus !== before;
			});
		}

		await press('c', 'c', screen => new RegExp(`Cancel ${target} .*\\?`).test(screen));
		const running = await until(async () => runningOf(await control.screen()));
		await press('y', 'y', screen => {
			const count = runningOf(screen);
			return count !== undefined && count < running;
		});
		await sleep(60 + ((index * 37) % 120));
	}

	loads.push(loadNow());
	const instrumentTo = {...instrumentCpu(), at: now()};
	const seconds = (instrumentTo.at - instrumentFrom.at) / 1000;
	instrument = `the instrument while pressing: this process ${(100 * (instrumentTo.self - instrumentFrom.self) / seconds).toFixed(0)} % of a core, tmux ${(100 * (instrumentTo.tmux - instrumentFrom.tmux) / seconds).toFixed(0)} %`;
	await sleep(1200); // the trace's last flush
	if (profiling) {
		await control.sendKeys('q');
		await until(async () => /quit/i.test(await control.screen()));
		await control.sendKeys('y');
		await waitFor('the dashboard to leave and write its profile', () => !running(session.pid) && readdirSync(traceDir).some(name => name.split('.')[3] === String(session.pid)), 60_000);
	}
} finally {
	control.close();
	await session.stop();
}

const trace = readFileSync(traceFile, 'utf8').trim().split('\n').map(line => JSON.parse(line));
const keys = trace.filter(entry => entry.k === 'stdin').sort((a, b) => a.t - b.t);
const busy = trace.filter(entry => ['sock', 'timer', 'immediate', 'gc', 'stdin'].includes(entry.k));
const outs = trace.filter(entry => entry.k === 'out');
const rows = [];
for (const entry of timed) {
	const read = keys.find(key => key.t >= entry.send);
	if (!read || entry.seen === undefined) continue;
	const out = outs.find(write => write.t >= read.t);
	const [cpu0, wait0] = entry.sched;
	rows.push({
		...entry,
		total: entry.seen - entry.send,
		toTmux: entry.acked - entry.send,
		toRead: read.t - entry.send,
		busyBefore: read.cpu - cpu0,
		waitBefore: read.wait - wait0,
		asleep: read.t - entry.acked - (read.cpu - cpu0) - (read.wait - wait0),
		handler: read.d,
		toOut: out ? out.t + out.d - read.t : Number.NaN,
		outBlock: out ? out.d : Number.NaN,
		frameCpu: out ? out.cpu - read.cpu : Number.NaN,
		// y: the cancel request to the runner host, before (<0) or after the key's frame was written.
		requestAfterFrame: entry.kind === 'y' && out ? (trace.find(event => event.k === 'req' && event.t >= read.t)?.t ?? Number.NaN) - (out.t + out.d) : Number.NaN,
		frameWait: out ? out.wait - read.wait : Number.NaN,
		toSeen: out ? entry.seen - (out.t + out.d) : Number.NaN,
		during: busy.filter(event => event.t + event.d > entry.send && event.t < read.t && event !== read),
	});
}

const quantile = (values, q) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

const ms = value => (Number.isFinite(value) ? value.toFixed(1) : '—');
const columns = ['total', 'toTmux', 'toRead', 'busyBefore', 'waitBefore', 'asleep', 'handler', 'toOut', 'frameCpu', 'frameWait', 'outBlock', 'toSeen', 'requestAfterFrame'];
console.log(`load ${loads.map(load => load.toFixed(2)).join(', ')}; trace ${traceFile}\n${instrument}`);
for (const kind of ['focus', 'c', 'y']) {
	const some = rows.filter(row => row.kind === kind);
	if (some.length === 0) continue;
	console.log(`\n${kind} (${some.length} presses): p50 / p90 / max, ms`);
	for (const column of columns) {
		const values = some.map(row => row[column]).filter(Number.isFinite);
		console.log(`  ${column.padEnd(11)} ${ms(quantile(values, 0.5))} / ${ms(quantile(values, 0.9))} / ${ms(Math.max(...values))}`);
	}
}

// Output handled first: a socket read that began after the key was sent and before it was read
// (its message parsed and applied, its frame drawn in the microtasks after it).
const behindOutput = rows.filter(row => row.during.some(event => event.k === 'sock' && event.t >= row.send));
const outputFirst = behindOutput.map(row => row.send + row.toRead - Math.min(...row.during.filter(event => event.k === 'sock' && event.t >= row.send).map(event => event.t)));
console.log(`\nkeys read after an output message that came after them: ${behindOutput.length} of ${rows.length}; from that message to the key's read p50 ${ms(quantile(outputFirst, 0.5))} / max ${ms(Math.max(...outputFirst))} ms`);
const collections = trace.filter(entry => entry.k === 'gc');
const spanS = (trace.at(-1).t - trace[0].t) / 1000;
for (const kind of new Set(collections.map(entry => entry.kind))) {
	const walls = collections.filter(entry => entry.kind === kind).map(entry => entry.d);
	console.log(`gc kind ${kind}: ${(walls.length / spanS).toFixed(1)}/s, wall p50 ${ms(quantile(walls, 0.5))} / p90 ${ms(quantile(walls, 0.9))} / max ${ms(Math.max(...walls))} ms`);
}

const slowest = [...rows].sort((a, b) => b.total - a.total).slice(0, Math.max(3, Math.ceil(rows.length / 10)));
console.log('\nthe slowest presses: total = toRead + handler→frame + frame→seen; what ran between the key sent and its read');
for (const row of slowest) {
	console.log(`${row.kind} ${ms(row.total)}: toTmux ${ms(row.toTmux)}, toRead ${ms(row.toRead)} (busy ${ms(row.busyBefore)}, waiting ${ms(row.waitBefore)}), handler ${ms(row.handler)}, toOut ${ms(row.toOut)} (write ${ms(row.outBlock)}), toSeen ${ms(row.toSeen)}`);
	console.log(`   ${row.during.map(event => `${event.k}${event.n ? `(${event.n} B)` : ''}${event.kind === undefined ? '' : `[${event.kind}]`} @${ms(event.t - row.send)}+${ms(event.d)}`).join(', ')}`);
}

if (profiling) {
	const file = readdirSync(traceDir).find(name => name.split('.')[3] === String(session.pid));
	const profile = JSON.parse(readFileSync(path.join(traceDir, file), 'utf8'));
	const nodes = new Map(profile.nodes.map(node => [node.id, node]));
	const parentOf = new Map();
	for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
	const nameOf = id => {
		const {functionName, url, lineNumber} = nodes.get(id).callFrame;
		return `${functionName || '(anonymous)'}  ${url.split('/').at(-1)}:${lineNumber + 1}`;
	};

	for (const kind of ['focus', 'c', 'y']) {
		const windows = rows.filter(row => row.kind === kind && Number.isFinite(row.toOut)).map(row => [row.send + row.toRead, row.send + row.toRead + row.toOut]);
		const self = new Map();
		const inclusive = new Map();
		let total = 0;
		let at = profile.startTime;
		for (const [index, id] of profile.samples.entries()) {
			at += profile.timeDeltas[index];
			const ms = at / 1000;
			if (!windows.some(([from, to]) => ms >= from && ms <= to)) continue;
			const weight = (profile.timeDeltas[index + 1] ?? 0) / 1000;
			if (nodes.get(id).callFrame.functionName === '(idle)') continue;
			total += weight;
			self.set(nameOf(id), (self.get(nameOf(id)) ?? 0) + weight);
			const seen = new Set();
			for (let node = id; node !== undefined; node = parentOf.get(node)) {
				const name = nameOf(node);
				if (seen.has(name)) continue;
				seen.add(name);
				inclusive.set(name, (inclusive.get(name) ?? 0) + weight);
			}
		}

		console.log(`\n${kind}: ${windows.length} frames, ${(total / windows.length).toFixed(1)} ms sampled a frame`);
		for (const [title, map] of [['self', self], ['inclusive', inclusive]]) {
			console.log(`  ${title}:`);
			for (const [name, spent] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(env.BENCH_TOP ?? 22))) console.log(`    ${(spent / windows.length).toFixed(2).padStart(6)} ms  ${name}`);
		}
	}
}
