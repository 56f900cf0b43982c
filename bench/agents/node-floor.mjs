// The least any Node runner does for a headless batch, as a floor for `hermes-delegate run`:
// each agent spawned detached (its own process group, as hermes-delegate does) with both pipes
// read, N at a time; with a log folder, each agent's output goes to its own file. Nothing
// else: no plan, no results, no process records, no /proc, no kill cascade.
// `node node-floor.mjs AGENT CONCURRENCY [LOG_DIR]`, the goals one a line in $GOALS.
import {spawn} from 'node:child_process';
import {createWriteStream, mkdirSync} from 'node:fs';
import path from 'node:path';

const [agent, concurrencyText, logDir] = process.argv.slice(2);
const goals = (process.env.GOALS ?? '').split('\n').filter(Boolean);
if (logDir) {
	mkdirSync(logDir, {recursive: true});
}

let next = 0;
let failed = 0;
function startNext() {
	const goal = goals[next++];
	if (goal === undefined) {
		return;
	}

	const child = spawn(agent, ['chat', '-q', goal], {detached: true, stdio: ['ignore', 'pipe', 'pipe']});
	const log = logDir ? createWriteStream(path.join(logDir, `${goal}.log`)) : undefined;
	for (const stream of [child.stdout, child.stderr]) {
		if (log) {
			stream.pipe(log, {end: false});
		} else {
			stream.resume();
		}
	}

	child.on('close', code => {
		failed += code === 0 ? 0 : 1;
		log?.end();
		startNext();
	});
}

for (let i = 0; i < Number(concurrencyText); i++) {
	startNext();
}

process.on('exit', () => {
	process.exitCode = failed > 0 ? 1 : 0;
});
