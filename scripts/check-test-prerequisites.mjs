// `npm test` runs this first: what the tests need beyond Node and `npm ci`, named with the fix,
// instead of a dashboard test failing with a spawn error deep in its output.
import {spawnSync} from 'node:child_process';

const missing = [];
// The dashboard's end-to-end tests (test/e2e/dashboard-pty.test.ts) drive it in a real terminal.
if (spawnSync('tmux', ['-V'], {stdio: 'ignore'}).error !== undefined) {
	missing.push('tmux (the dashboard\'s end-to-end tests run it in a real terminal through tmux)\n  fix: sudo apt-get install tmux (Debian, Ubuntu) · brew install tmux (macOS) · sudo dnf install tmux (Fedora)');
}

if (missing.length > 0) {
	console.error(`npm test: missing ${missing.join('\nnpm test: missing ')}`);
	process.exitCode = 1;
}
