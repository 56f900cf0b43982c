// A config.yaml that another program holds half-written (open for writing, its first half on disk)
// is never taken as whole: `config route` does not save the half plus its edit (the other half,
// written a moment later into the replaced file, was lost), and the runner host's watcher does not
// re-plan from it. The writer is a real process holding the file open.
import {spawn} from 'node:child_process';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {makeHome, runCli} from '../helpers/run-cli.js';
import {waitForLine} from '../helpers/wait-for.js';

const full = `# Hermes config
model: anthropic/claude-sonnet-5
delegation:
  backend: model_map
  backends:
    model_map:
      options:
        - name: fast
          description: "Cheap and quick."
          provider: openrouter
          model: google/gemini-3-flash-preview
        - name: deep
          description: "Slow and careful."
          provider: anthropic
          model: claude-opus-5
      default: fast
terminal:
  backend: local
`;
// Cut after the first route: valid YAML on its own.
const half = full.slice(0, full.indexOf('        - name: deep'));

/** A process that truncates `file`, writes `half`, says HALF, and writes the rest once told on stdin. */
function halfWriter(file: string) {
	const script = `const fs = require('node:fs');
const fd = fs.openSync(process.argv[1], 'w');
fs.writeSync(fd, process.argv[2]);
process.stdout.write('HALF\\n');
process.stdin.once('data', () => { fs.writeSync(fd, process.argv[3]); fs.closeSync(fd); process.exit(0); });`;
	const child = spawn(process.execPath, ['-e', script, file, half, full.slice(half.length)], {stdio: ['pipe', 'pipe', 'inherit']});
	onTestFinished(() => {
		child.kill('SIGKILL');
	});
	return {
		child,
		ready: waitForLine(child.stdout, /HALF/),
		async finish() {
			const exited = new Promise(resolve => child.once('exit', resolve));
			child.stdin.write('go\n');
			await exited;
		},
	};
}

describe('config.yaml held half-written by another program', () => {
	it('config route refuses to save on it, naming the writer, and nothing is lost', {timeout: 60_000}, async () => {
		const test = makeHome(full);
		onTestFinished(() => test.remove());
		const file = path.join(test.dir, 'config.yaml');
		const writer = halfWriter(file);
		await writer.ready;

		const route = await runCli(test, ['config', 'route', 'fast', '--description', 'Edited.']);
		expect(route.exitCode).toBe(2);
		expect(route.stderr).toContain(`${file}: is being written by another program (node (pid ${writer.child.pid}) has it open for writing); nothing was saved`);

		await writer.finish();
		expect(readFileSync(file, 'utf8')).toBe(full);
		// Once it has settled, the same edit lands on the whole file.
		const again = await runCli(test, ['config', 'route', 'fast', '--description', 'Edited.']);
		expect(again.exitCode, again.stderr).toBe(0);
		expect(readFileSync(file, 'utf8')).toBe(full.replace('"Cheap and quick."', '"Edited."'));
	});
});
