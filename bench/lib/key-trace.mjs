// Loaded into the dashboard with `node --import` by bench/trace-keys.mjs (never by the product):
// timestamps, on the monotonic clock both processes share (process.hrtime), of what the
// dashboard's main thread does around a key: each read of stdin (the key), each socket `data`
// handler (the runner host's messages, parsed, applied and drawn in the same call), each write to
// the terminal and how long it blocked, timers and immediates over 1 ms, garbage collections, and
// the thread's schedstat (time on a core, time runnable but waiting for one) at each read of
// stdin and after each write. Appended as JSON lines to $KEY_TRACE_FILE every half second.
// $KEY_TRACE_STACKS=1 adds each write's stack and every timer and immediate; $KEY_TRACE_V8 sets V8
// flags in the dashboard at its start (an experiment).
import {appendFileSync, readFileSync} from 'node:fs';
import net from 'node:net';
import {PerformanceObserver, performance} from 'node:perf_hooks';
import v8 from 'node:v8';

// The runner host is started with the dashboard's execArgv: it is not traced.
const file = process.argv.includes('__host') ? undefined : process.env.KEY_TRACE_FILE;
if (file !== undefined) trace(file);

function trace(file) {
	for (const flag of (process.env.KEY_TRACE_V8 ?? '').split(' ').filter(Boolean)) v8.setFlagsFromString(flag);
	const stacks = process.env.KEY_TRACE_STACKS === '1';
	if (stacks) Error.stackTraceLimit = 50;
	const now = () => Number(process.hrtime.bigint()) / 1e6;
	const perfToHr = now() - performance.now();
	let lines = [];
	const log = entry => lines.push(JSON.stringify(entry));
	const flush = () => {
		if (lines.length > 0) appendFileSync(file, `${lines.join('\n')}\n`);
		lines = [];
	};

	setInterval(flush, 500).unref();
	process.on('exit', flush);

	/** [ms on a core, ms runnable and waiting] of this thread so far. */
	const schedstat = () => readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').slice(0, 2).map(ns => Number(ns) / 1e6);

	const stdin = process.stdin;
	const emitStdin = stdin.emit;
	stdin.emit = function (event, ...args) {
		if (event !== 'readable' && event !== 'data') return emitStdin.call(this, event, ...args);
		const start = now();
		const [cpu, wait] = schedstat();
		const result = emitStdin.call(this, event, ...args);
		log({k: 'stdin', t: start, d: now() - start, cpu, wait});
		return result;
	};

	const read = stdin.read;
	stdin.read = function (...args) {
		const chunk = read.apply(this, args);
		if (chunk !== null) log({k: 'key', t: now(), s: String(chunk)});
		return chunk;
	};

	const emitSocket = net.Socket.prototype.emit;
	net.Socket.prototype.emit = function (event, ...args) {
		if (event !== 'data' || this === stdin) return emitSocket.call(this, event, ...args);
		const start = now();
		const result = emitSocket.call(this, event, ...args);
		log({k: 'sock', t: start, d: now() - start, n: args[0]?.length ?? 0});
		return result;
	};

	const writeSocket = net.Socket.prototype.write;
	net.Socket.prototype.write = function (...args) {
		if (this !== process.stdout) log({k: 'req', t: now(), n: args[0]?.length ?? 0});
		return writeSocket.apply(this, args);
	};

	const write = process.stdout.write;
	process.stdout.write = function (...args) {
		const start = now();
		const result = write.apply(this, args);
		const [cpu, wait] = schedstat();
		const entry = {k: 'out', t: start, d: now() - start, cpu, wait, n: typeof args[0] === 'string' ? Buffer.byteLength(args[0]) : args[0]?.length ?? 0};
		if (stacks) entry.stack = new Error('out').stack.split('\n').slice(2, 40).map(line => line.trim().replace(/\(.*\//, '(')).join(' < ');
		log(entry);
		return result;
	};

	const timed = (kind, callback) => function (...args) {
		const start = now();
		try {
			return callback.apply(this, args);
		} finally {
			const spent = now() - start;
			if (spent > 1 || stacks) log({k: kind, t: start, d: spent, f: callback.name || '?'});
		}
	};

	for (const [name, kind] of [['setTimeout', 'timer'], ['setImmediate', 'immediate'], ['setInterval', 'timer']]) {
		const original = globalThis[name];
		globalThis[name] = function (callback, ...rest) {
			return original.call(this, typeof callback === 'function' ? timed(kind, callback) : callback, ...rest);
		};
	}

	new PerformanceObserver(list => {
		for (const entry of list.getEntries()) log({k: 'gc', t: entry.startTime + perfToHr, d: entry.duration, kind: entry.detail?.kind});
	}).observe({entryTypes: ['gc']});
}
