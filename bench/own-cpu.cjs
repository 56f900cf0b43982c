// Preloaded into hermes-delegate by run-cpu-ab.mjs (NODE_OPTIONS=--require): at exit, appends the
// process's own CPU (user and system seconds, all its threads, not its children) and peak RSS to
// $BENCH_OWN_CPU as one JSON line. A bench helper, never loaded by the product.
const {appendFileSync} = require('node:fs');

process.on('exit', () => {
	const file = process.env.BENCH_OWN_CPU;
	if (!file || process.argv[2] !== 'run') return;
	const usage = process.resourceUsage();
	appendFileSync(file, `${JSON.stringify({user: usage.userCPUTime / 1e6, system: usage.systemCPUTime / 1e6, maxRssMiB: usage.maxRSS / 1024})}\n`);
});
