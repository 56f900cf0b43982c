// Saving config.yaml while others save it too, with real CLI processes and real files: many
// `hermes-delegate config` at once all land, a writer that takes no lock and saves at the same
// instant is detected and kept, and a save killed midway leaves nothing readable behind.
// The instant is forced, not hoped for: the CLI runs with a preloaded module that pauses its own
// rename of config.yaml until the test has made the other writer's change.
import {existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {describe, it} from 'vitest';
import {cliPath, makeHome, runCli, type TestHome} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/wait-for.js';

const routeCount = 20;
const manyRoutes = `# Hermes config
model: anthropic/claude-sonnet-5
delegation:
  backend: model_map
  backends:
    model_map:
      options:
${Array.from({length: routeCount}, (_, index) => `        - name: r${index}
          description: "Route ${index}."
          provider: openrouter
          model: m${index}
`).join('')}      default: r0
terminal:
  backend: local
`;

function home(onTestFinished: (fn: () => void) => void): TestHome {
	const created = makeHome(manyRoutes);
	onTestFinished(() => created.remove());
	return created;
}

const configOf = (test: TestHome) => readFileSync(path.join(test.dir, 'config.yaml'), 'utf8');

// Preloaded into the CLI: pauses at one fs call on config.yaml's save until the file `go`
// appears, after writing `paused`. PAUSE_AT: before-rename, after-rename, or first-fsync.
const pauser = `import fs from 'node:fs';
import {syncBuiltinESMExports} from 'node:module';
const dir = process.env.PAUSE_DIR;
const at = process.env.PAUSE_AT;
const cell = new Int32Array(new SharedArrayBuffer(4));
let paused = false;
const pause = () => {
	paused = true;
	fs.writeFileSync(dir + '/paused', String(process.pid));
	while (!fs.existsSync(dir + '/go')) Atomics.wait(cell, 0, 0, 5);
};
const rename = fs.renameSync;
fs.renameSync = (from, to) => {
	const hit = !paused && String(to).endsWith('/config.yaml');
	if (hit && at === 'before-rename') pause();
	rename(from, to);
	if (hit && at === 'after-rename') pause();
};
const fsync = fs.fsyncSync;
fs.fsyncSync = fd => {
	fsync(fd);
	if (!paused && at === 'first-fsync') pause();
};
syncBuiltinESMExports();
`;

function startPaused(test: TestHome, at: string, args: string[]) {
	const control = path.join(test.dir, 'control');
	test.write('control/pauser.mjs', pauser);
	const child = execa(process.execPath, ['--import', path.join(control, 'pauser.mjs'), cliPath, ...args], {
		env: {...process.env, HERMES_HOME: test.dir, TMPDIR: test.dir, NO_COLOR: '1', PAUSE_DIR: control, PAUSE_AT: at},
		extendEnv: false,
		reject: false,
	});
	return {
		child,
		paused: () => waitFor(() => existsSync(path.join(control, 'paused')), {message: 'the CLI to pause at its save'}),
		go: () => writeFileSync(path.join(control, 'go'), ''),
	};
}

/** What `hermes config edit` does: read, change, write back (here by rename, as an editor's save). */
function outsideWrite(test: TestHome, text: string, how: 'rename' | 'in-place'): void {
	const file = path.join(test.dir, 'config.yaml');
	if (how === 'in-place') {
		writeFileSync(file, text);
		return;
	}

	writeFileSync(`${file}.outside`, text);
	renameSync(`${file}.outside`, file);
}

describe('saving config.yaml while others save it', () => {
	it(`${routeCount} concurrent \`config route\` processes on ${routeCount} routes all succeed, and every edit is in the file`, async ({expect, onTestFinished}) => {
		const test = home(onTestFinished);
		const runs = await Promise.all(Array.from({length: routeCount}, (_, index) => runCli(test, ['config', 'route', `r${index}`, '--description', `Edited ${index}.`])));
		expect(runs.map(run => run.exitCode)).toEqual(runs.map(() => 0));
		const text = configOf(test);
		for (let index = 0; index < routeCount; index++) {
			expect(text).toContain(`description: "Edited ${index}."`);
		}

		expect(text).toBe(manyRoutes.replaceAll(/description: "Route (\d+)\."/g, 'description: "Edited $1."'));
		expect(readdirSync(test.dir).filter(name => name.includes('hermes-delegate'))).toEqual([]);
	}, 240_000); // Twenty Node starts on a shared 2-core machine: a safety net, not a measurement.

	it('a writer without a lock that saves over the edit right after its rename is detected: reported, and the edit re-applied on top', async ({expect, onTestFinished}) => {
		const test = home(onTestFinished);
		const save = startPaused(test, 'after-rename', ['config', 'route', 'r3', '--description', 'Ours.']);
		await save.paused();
		// The other writer read the file before our save, so its text lacks our edit.
		outsideWrite(test, manyRoutes.replace('model: anthropic/claude-sonnet-5', 'model: theirs'), 'rename');
		save.go();
		const run = await save.child;
		expect(run.stderr).toMatch(/another program saved .*config\.yaml at the same moment as this edit; its change was kept and this edit re-applied/);
		expect(run.exitCode).toBe(0);
		expect(configOf(test)).toBe(manyRoutes.replace('model: anthropic/claude-sonnet-5', 'model: theirs').replace('description: "Route 3."', 'description: "Ours."'));
	});

	it('a writer without a lock that changes the file in place just before the rename: what the rename replaced is kept, and the edit re-applied on it', async ({expect, onTestFinished}) => {
		const test = home(onTestFinished);
		const save = startPaused(test, 'before-rename', ['config', 'route', 'r3', '--description', 'Ours.']);
		await save.paused();
		outsideWrite(test, manyRoutes.replace('backend: local', 'backend: docker'), 'in-place');
		save.go();
		const run = await save.child;
		expect(run.stderr).toMatch(/another program saved .* at the same moment/);
		expect(run.exitCode).toBe(0);
		expect(configOf(test)).toBe(manyRoutes.replace('backend: local', 'backend: docker').replace('description: "Route 3."', 'description: "Ours."'));
	});

	it('a writer without a lock that changes the same route meanwhile: its change stays, the edit is refused with exit 2', async ({expect, onTestFinished}) => {
		const test = home(onTestFinished);
		const save = startPaused(test, 'before-rename', ['config', 'route', 'r3', '--description', 'Ours.']);
		await save.paused();
		const theirs = manyRoutes.replace('description: "Route 3."', 'description: "Theirs."');
		outsideWrite(test, theirs, 'in-place');
		save.go();
		const run = await save.child;
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(/changed on disk since it was loaded, and it changes what this edit changes/);
		expect(configOf(test)).toBe(theirs);
	});

	it('a save killed midway leaves its temporary file 0600, and the next save sweeps it and the stale lock away', async ({expect, onTestFinished}) => {
		const test = home(onTestFinished);
		const save = startPaused(test, 'first-fsync', ['config', 'route', 'r3', '--description', 'Killed.']);
		await save.paused();
		const leftovers = () => readdirSync(test.dir).filter(name => name.includes('hermes-delegate'));
		const temporary = leftovers().find(name => name.endsWith('.tmp'));
		expect(temporary, leftovers().join(', ')).toBeDefined();
		expect(statSync(path.join(test.dir, temporary!)).mode & 0o777).toBe(0o600);
		save.child.kill('SIGKILL');
		await save.child;
		expect(leftovers().some(name => name.endsWith('.lock'))).toBe(true);
		expect(configOf(test)).toBe(manyRoutes);

		const next = await runCli(test, ['config', 'route', 'r4', '--description', 'Next.']);
		expect(next.exitCode).toBe(0);
		expect(leftovers()).toEqual([]);
		expect(configOf(test)).toBe(manyRoutes.replace('description: "Route 4."', 'description: "Next."'));
	});
});
