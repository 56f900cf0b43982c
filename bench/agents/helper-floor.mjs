// The node floor (node-floor.mjs) with its forking done by a small native process
// (spawn-helper.c): each agent's output goes straight to its own log file, and the Node side
// writes a line per agent, reads a line back when it ends and then reads its log, as a runner
// would for the result. N at a time. For measuring what such a helper would buy; not part of
// hermes-delegate. `node helper-floor.mjs HELPER AGENT CONCURRENCY LOG_DIR`, goals in $GOALS.
import {spawn} from 'node:child_process';
import {mkdirSync, readFileSync} from 'node:fs';
import path from 'node:path';

const [helperPath, agent, concurrencyText, logDir] = process.argv.slice(2);
const goals = (process.env.GOALS ?? '').split('\n').filter(Boolean);
mkdirSync(logDir, {recursive: true});
const helper = spawn(helperPath, [], {stdio: ['pipe', 'pipe', 'inherit']});
let next = 0;
let ended = 0;
let failed = 0;
function startNext() {
	const goal = goals[next++];
	if (goal === undefined) {
		return;
	}

	helper.stdin.write(`${goal}\t${path.join(logDir, `${goal}.log`)}\t${agent}\tchat\t-q\t${goal}\n`);
}

let rest = '';
helper.stdout.setEncoding('utf8');
helper.stdout.on('data', text => {
	const lines = (rest + text).split('\n');
	rest = lines.pop();
	for (const line of lines) {
		const [goal, status] = line.split('\t');
		readFileSync(path.join(logDir, `${goal}.log`));
		failed += status === '0' ? 0 : 1;
		if (++ended === goals.length) {
			helper.stdin.end();
		}

		startNext();
	}
});

for (let i = 0; i < Number(concurrencyText); i++) {
	startNext();
}

helper.on('close', code => {
	process.exitCode = failed > 0 || code !== 0 || ended !== goals.length ? 1 : 0;
});
