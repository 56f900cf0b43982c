// A kept .cpuprofile (bench/profile-flood.mjs with BENCH_KEEP=1) read by time: its busy time
// second by second, and, for a window of it, the self time of each sample given to the nearest
// frame of src/ on its stack (what of ours was running, the library and VM time it caused
// included), with that frame's own callers' src/ frames as a path.
//
// `node bench/profile-window.mjs <file.cpuprofile> [from-s] [to-s] [top]` (seconds from the
// profile's start; default the whole profile, top 25). Input for optimising, not a figure.
import {readFileSync} from 'node:fs';
import {origin} from './cpu-profile.mjs';

const [file, fromText, toText, topText] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const from = Number(fromText ?? 0) * 1e6;
const to = toText === undefined ? Number.POSITIVE_INFINITY : Number(toText) * 1e6;
const top = Number(topText ?? 25);
const byId = new Map(profile.nodes.map(node => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const origins = new Map();
const originOf = id => {
	if (!origins.has(id)) origins.set(id, origin(byId.get(id).callFrame));
	return origins.get(id);
};

/** The nearest src/ frame on the stack and its src/ callers (up to 3), as one key. */
function ownPath(id) {
	const frames = [];
	for (let at = id; at !== undefined && frames.length < 4; at = parent.get(at)) {
		const {file, line} = originOf(at);
		if (file.startsWith('src/')) frames.push(`${byId.get(at).callFrame.functionName || '(anonymous)'} ${file}:${line}`);
	}

	return frames.length === 0 ? `(outside src) ${byId.get(id).callFrame.functionName || '(anonymous)'} ${originOf(id).file}` : frames.join(' < ');
}

const perSecond = new Map();
const inWindow = new Map();
let time = 0;
let busy = 0;
profile.samples.forEach((id, index) => {
	const delta = profile.timeDeltas[index] ?? 0;
	time += delta;
	const name = byId.get(id).callFrame.functionName;
	if (name === '(idle)') return;
	const second = Math.floor(time / 1e6);
	perSecond.set(second, (perSecond.get(second) ?? 0) + delta / 1000);
	if (time < from || time >= to) return;
	busy += delta / 1000;
	const key = name === '(garbage collector)' || name === '(program)' ? name : ownPath(id);
	inWindow.set(key, (inWindow.get(key) ?? 0) + delta / 1000);
});

console.log('busy ms per second of the profile:');
console.log([...perSecond].map(([second, ms]) => `${second}:${Math.round(ms)}`).join(' '));
console.log(`\nwindow ${from / 1e6}–${Number.isFinite(to) ? to / 1e6 : 'end'} s: ${Math.round(busy)} ms busy; by nearest src/ frame (and its src/ callers):`);
for (const [key, ms] of [...inWindow].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms.toFixed(0).padStart(7)} ms  ${key}`);
