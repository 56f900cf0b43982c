// Where a key waits under a flood (input for optimising, not a figure to compare): `hermes-delegate
// tui` over 16 endless floods in a 200×50 tmux pane, under `node --cpu-prof`, with 40 Tab presses
// at uneven intervals. A key waits for whatever the main thread is doing when it arrives, so this
// prints the main thread's busy stretches (runs of samples that are not idle) and, inside the
// long ones, the functions by self and by inclusive time, named as in dist/'s bundle (it keeps
// function names; bench/profile-flood.mjs maps them back to src/ when that matters).
//
// `node bench/profile-keys.mjs` (after a build). BENCH_LONG_MS (12): what counts as a long
// stretch; BENCH_SKIP_S (4): start-up left out; BENCH_TOP (25); BENCH_CLI (this checkout's
// dist/cli.js: another build's, to compare). The .cpuprofile is kept; its folder is printed last.
import {mkdtempSync, readdirSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {goals, startDashboard, stopEverything} from './lib/dashboard.mjs';
import {countFiles, running, sleep, waitFor} from './lib/procs.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = process.env;
const longMs = Number(env.BENCH_LONG_MS ?? 12);
const skipMs = Number(env.BENCH_SKIP_S ?? 4) * 1000;
const top = Number(env.BENCH_TOP ?? 25);
const paths = {cli: env.BENCH_CLI ?? path.join(here, '..', 'dist', 'cli.js'), agent: path.join(here, 'agents', 'agent.sh')};

const profileDir = mkdtempSync(path.join(tmpdir(), 'hd-keys-profile-'));
const session = await startDashboard('hermes-delegate', paths, goals('endless', 16), {nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval', '250']});
try {
	await waitFor('16 agents flooding', () => countFiles(path.join(session.state, 'pid')) >= 16);
	await sleep(2000); // into the steady state
	for (let press = 0; press < 40; press++) {
		session.sendKeys('Tab');
		await sleep(150 + ((press * 37) % 100)); // not in step with the frame clock
	}

	session.sendKeys('q');
	await waitFor('the quit question', () => /quit/i.test(session.screen()));
	session.sendKeys('y');
	await waitFor('the dashboard to leave and write its profile', () => !running(session.pid) && readdirSync(profileDir).some(name => name.split('.')[3] === String(session.pid)), 60_000);
} finally {
	await session.stop();
	stopEverything();
}

// The runner host, started with the dashboard's Node flags, writes a profile too: a key waits in
// the dashboard (Node names a profile CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile).
const file = readdirSync(profileDir).find(name => name.split('.')[3] === String(session.pid));
const profile = JSON.parse(readFileSync(path.join(profileDir, file), 'utf8'));
const nodes = new Map(profile.nodes.map(node => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) {
	for (const child of node.children ?? []) {
		parentOf.set(child, node.id);
	}
}

const nameOf = id => {
	const {functionName, url, lineNumber} = nodes.get(id).callFrame;
	return `${functionName || '(anonymous)'}  ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
};

// Busy stretches: consecutive samples that are not (idle), each with the samples it holds.
const stretches = [];
let current;
let at = profile.startTime;
for (const [index, id] of profile.samples.entries()) {
	at += profile.timeDeltas[index];
	const weight = profile.timeDeltas[index + 1] ?? 0;
	if ((at - profile.startTime) / 1000 < skipMs) {
		continue;
	}

	if (nodes.get(id).callFrame.functionName === '(idle)') {
		if (current) stretches.push(current);
		current = undefined;
		continue;
	}

	current ??= {start: at, end: at, samples: []};
	current.end = at;
	current.samples.push([id, weight]);
}

if (current) stretches.push(current);
const lengths = stretches.map(stretch => (stretch.end - stretch.start) / 1000).sort((a, b) => a - b);
const quantile = q => lengths[Math.min(lengths.length - 1, Math.floor(q * lengths.length))] ?? 0;
console.log(`busy stretches: ${lengths.length}; p50 ${quantile(0.5).toFixed(1)}, p90 ${quantile(0.9).toFixed(1)}, p99 ${quantile(0.99).toFixed(1)}, max ${(lengths.at(-1) ?? 0).toFixed(1)} ms; ${lengths.filter(ms => ms > longMs).length} over ${longMs} ms`);

const self = new Map();
const inclusive = new Map();
let total = 0;
for (const stretch of stretches) {
	if ((stretch.end - stretch.start) / 1000 <= longMs) continue;
	for (const [id, weight] of stretch.samples) {
		total += weight;
		self.set(nameOf(id), (self.get(nameOf(id)) ?? 0) + weight);
		const seen = new Set();
		for (let node = id; node !== undefined; node = parentOf.get(node)) {
			const name = nameOf(node);
			if (!seen.has(name)) {
				seen.add(name);
				inclusive.set(name, (inclusive.get(name) ?? 0) + weight);
			}
		}
	}
}

const print = (title, map) => {
	console.log(`\n${title}:`);
	for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
		console.log(`  ${(us / 1000).toFixed(0).padStart(6)} ms  ${((us / total) * 100).toFixed(1).padStart(5)}%  ${name}`);
	}
};

console.log(`in stretches over ${longMs} ms: ${(total / 1000).toFixed(0)} ms`);
print('self time', self);
print('inclusive time', inclusive);
console.log(`\nkept: ${profileDir}`);
