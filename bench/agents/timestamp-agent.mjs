#!/usr/bin/env node
// Stand-in for `hermes chat` that stamps its output: every 20 ms a line `TS <epoch ms>` (for 4 s),
// then its answer. Anything else it is asked (the probe's --version and --help) goes to the fake
// agent posing as Hermes 0.19.0 (-Q: stdout is the answer verbatim), so a worker takes it as a Hermes.
// Used by bench/nats-fleet.mjs to time output line → runner host.
import {spawnSync} from 'node:child_process';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const args = process.argv.slice(2);
if (!args.includes('chat') || !(args.includes('-q') || args.includes('--query'))) {
	const fake = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'fake-agent', 'hermes.js');
	const probe = spawnSync(process.execPath, [fake, ...args], {stdio: 'inherit', env: {...process.env, FAKE_HERMES_VERSION: '0.19.0'}});
	process.exit(probe.status ?? 1);
}

const until = Date.now() + Number(process.env.BENCH_STAMP_MS ?? 4000);
const timer = setInterval(() => {
	process.stdout.write(`TS ${(performance.timeOrigin + performance.now()).toFixed(3)}\n`);
	if (Date.now() >= until) {
		clearInterval(timer);
		process.stdout.write('stamped\n');
	}
}, 20);
