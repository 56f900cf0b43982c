// `npm run screenshot`: docs/images/demo.png, the README's picture, from a real run of the demo.
// The demo's dashboard runs in a tmux pane of a fixed size; once its batch has shown what it is for
// (tasks done, one failed, one refused, the runaway still running) the pane is captured with its
// colours (`capture-pane -e`) and drawn cell by cell in DejaVu Sans Mono by ImageMagick.
// Needs tmux, ImageMagick 6 (`apt-get install imagemagick`) and fonts-dejavu-core; it is a tool for
// whoever updates the README, not part of the build or the tests.
import {execFileSync, spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseAnsi, toMvg} from './screenshot-render.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.join(root, 'docs', 'images', 'demo.png');
const columns = 130;
const rows = 38;
const socket = `hd-screenshot-${process.pid}`;
const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], {encoding: 'utf8'});

/** ImageMagick's convert, not a stand-in of the same name: it must say it is ImageMagick. */
function imageMagick() {
	for (const candidate of ['convert-im6.q16', 'convert-im6', '/usr/bin/convert', 'convert']) {
		const probe = spawnSync(candidate, ['-version'], {encoding: 'utf8'});
		if (probe.status === 0 && probe.stdout.includes('ImageMagick')) return candidate;
	}

	throw new Error('no ImageMagick found: apt-get install imagemagick');
}

/** The batch has shown what the picture is for: every task settled but the runaway, which runs on. */
const ready = screen => /✗ 1 failed/.test(screen) && /⊖ 1 refused/.test(screen) && !/○ \d+ queued/.test(screen) && /● 1 running/.test(screen);

const convert = imageMagick();
const home = mkdtempSync(path.join(tmpdir(), 'hd-screenshot-'));
try {
	tmux('new-session', '-d', '-x', String(columns), '-y', String(rows), '-e', `HERMES_DELEGATE_DEMO_HOME=${home}`, '-e', 'LANG=C.UTF-8', process.execPath, path.join(root, 'dist', 'cli.js'), 'demo');
	const deadline = Date.now() + 120_000;
	let screen = '';
	while (!ready(screen)) {
		if (Date.now() > deadline) throw new Error(`the demo did not reach its picture within 2 minutes; its screen:\n${screen}`);
		await new Promise(resolve => setTimeout(resolve, 250)); // a poll of the screen, not a guess at a duration
		screen = tmux('capture-pane', '-p');
	}

	const ansi = tmux('capture-pane', '-p', '-e');
	const cells = parseAnsi(ansi, columns, rows);
	const mvg = path.join(home, 'screen.mvg');
	writeFileSync(mvg, toMvg(cells, columns, rows));
	mkdirSync(path.dirname(output), {recursive: true});
	execFileSync(convert, ['-density', '72', `mvg:${mvg}`, '-strip', `png:${output}`]);
	console.error(`hermes-delegate: wrote ${path.relative(root, output)} (${columns}×${rows} cells)`);
} finally {
	// q then y: the demo's own way out, which ends its runaway with the cascade.
	spawnSync('tmux', ['-L', socket, 'send-keys', 'q']);
	spawnSync('tmux', ['-L', socket, 'send-keys', 'y']);
	spawnSync('tmux', ['-L', socket, 'kill-server']);
	rmSync(home, {recursive: true, force: true});
}
