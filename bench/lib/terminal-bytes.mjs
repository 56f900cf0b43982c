// Bytes a dashboard writes to its terminal: the tool over trickling agents in a 200×50 tmux pane
// (dashboard.mjs), everything the pane receives over a window counted through `tmux pipe-pane`,
// after the first frames (every pane filling), which are not the steady state.
import {existsSync, readFileSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {goals, startDashboard} from './dashboard.mjs';
import {countFiles, cpuSecondsOf, loadNow, sleep, waitFor} from './procs.mjs';

// Each of Ink's frames opens a synchronized update.
const frameMarker = Buffer.from('\u001B[?2026h');
const count = (buffer, marker) => {
	let n = 0;
	for (let at = buffer.indexOf(marker); at !== -1; at = buffer.indexOf(marker, at + 1)) n++;
	return n;
};

/**
 * One window of `seconds` with `tasks` agents at `rate` lines a second each (`varied`: each line
 * unlike the one before, as a real agent's): {bytesPerSecond, framesPerSecond, bytesPerFrame,
 * cpu (the pane's process, a share of a core), load}.
 */
export async function terminalBytes(tool, paths, {tasks, rate, seconds, warmupMs = 3000, varied = false}) {
	const env = {BENCH_TRICKLE_RATE: String(rate), BENCH_TRICKLE_S: String(seconds + warmupMs / 1000 + 30), BENCH_TRICKLE_VARIED: varied ? '1' : '0'};
	const session = await startDashboard(tool, paths, goals('trickle', tasks), {env});
	const file = path.join(tmpdir(), `hd-bytes-${process.pid}-${Date.now()}`);
	try {
		await waitFor(`${tasks} agents to start`, () => session.assertRunning() && countFiles(path.join(session.state, 'pid')) >= tasks, 60_000);
		await sleep(warmupMs);
		const [dashboard] = await session.processes();
		session.pipeOutput(file);
		const started = performance.now();
		const cpu0 = cpuSecondsOf([dashboard]);
		await sleep(seconds * 1000);
		session.pipeOutput(undefined);
		const elapsed = (performance.now() - started) / 1000;
		const cpu = (cpuSecondsOf([dashboard]) - cpu0) / elapsed;
		await sleep(200);
		const buffer = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
		const frames = count(buffer, frameMarker);
		const bytes = statSync(file, {throwIfNoEntry: false})?.size ?? 0;
		return {bytesPerSecond: bytes / elapsed, framesPerSecond: frames / elapsed, bytesPerFrame: frames ? buffer.length / frames : 0, cpu, load: loadNow()};
	} finally {
		rmSync(file, {force: true});
		await session.stop();
	}
}
