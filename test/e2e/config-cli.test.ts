// `hermes-delegate config set-mode | route | add-route | remove-route | show`, driven through the
// built CLI against real files: the printed diff is the file's change, bad values exit 2 and
// leave the file byte-for-byte as it was.
import {chmodSync, mkdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import {describe, it} from 'vitest';
import {cliForUser} from '../helpers/cli-for-user.js';
import {lineDiff} from '../../src/core/text/line-diff.js';
import {cliPath, makeHome, runCli, type TestHome} from '../helpers/run-cli.js';

const config = `# Hermes config (hand-written)
model: anthropic/claude-sonnet-5
delegation:
  max_concurrent_children: 5   # Hermes's own key
  backend: model_map           # the plugin's key
  backends:
    model_map:
      options:
        - name: fast
          description: 'Quick lookups.'   # single quotes
          provider: openrouter
          model: google/gemini-3-flash-preview
        - name: deep
          description: "Hard debugging."
          provider: anthropic
          model: claude-opus-5
      default: fast
terminal:
  backend: local
`;

function home(onTestFinished: (fn: () => void) => void, text = config): TestHome {
	const created = makeHome(text);
	mkdirSync(path.join(created.dir, 'profiles', 'coder'), {recursive: true});
	onTestFinished(() => created.remove());
	return created;
}

const configOf = (test: TestHome) => readFileSync(path.join(test.dir, 'config.yaml'), 'utf8');

describe.concurrent('config edits from the command line', () => {
	it('route --description prints the one line it changed, and the file changed in that line only', async ({expect, onTestFinished}) => {
		const test = home(onTestFinished);
		const run = await runCli(test, ['config', 'route', 'deep', '--description', 'Hard debugging and design.']);
		expect(run.exitCode).toBe(0);
		expect(run.stdout).toBe(`${path.join(test.dir, 'config.yaml')}: set description of model_map route "deep"\n@@ line 14\n-          description: "Hard debugging."\n+          description: "Hard debugging and design."`);
		expect(lineDiff(config, configOf(test))).toEqual([{line: 14, removed: ['          description: "Hard debugging."'], added: ['          description: "Hard debugging and design."']}]);
	});

	it('route with several flags, set-mode, add-route and remove-route each change their own lines', async ({expect, onTestFinished}) => {
		const test = home(onTestFinished);
		expect((await runCli(test, ['config', 'route', 'fast', '--model', 'google/gemini-3.1-flash', '--reasoning', 'low', '--default'])).exitCode).toBe(0);
		expect((await runCli(test, ['config', 'add-route', 'coder', '--description', 'Writes code.'])).exitCode).toBe(0);
		expect((await runCli(test, ['config', 'set-mode', 'profile_routes'])).exitCode).toBe(0);
		expect((await runCli(test, ['config', 'remove-route', 'deep'])).exitCode).toBe(0);
		expect(configOf(test)).toBe(`# Hermes config (hand-written)
model: anthropic/claude-sonnet-5
delegation:
  max_concurrent_children: 5   # Hermes's own key
  backend: profile_routes           # the plugin's key
  backends:
    model_map:
      options:
        - name: fast
          description: 'Quick lookups.'   # single quotes
          provider: openrouter
          model: google/gemini-3.1-flash
          reasoning_effort: low
      default: fast
    profile_routes:
      profiles:
        - name: coder
          description: Writes code.
terminal:
  backend: local
`);
		const show = await runCli(test, ['config', 'show', '--json']);
		expect(JSON.parse(show.stdout)).toMatchObject({mode: 'profile_routes', builtin: {max_concurrent_children: 5}, settings: {concurrency: 5}});
	});

	it('route --clear removes the key\'s one line, printed as a diff like the other edits', async ({expect, onTestFinished}) => {
		const withEffort = config.replace('          model: claude-opus-5\n', '          model: claude-opus-5\n          reasoning_effort: high   # for now\n');
		const test = home(onTestFinished, withEffort);
		const run = await runCli(test, ['config', 'route', 'deep', '--clear', 'reasoning_effort']);
		expect(run.exitCode).toBe(0);
		expect(run.stdout).toBe(`${path.join(test.dir, 'config.yaml')}: remove reasoning_effort from model_map route "deep"\n@@ line 17\n-          reasoning_effort: high   # for now`);
		expect(configOf(test)).toBe(config);
		const again = await runCli(test, ['config', 'route', 'deep', '--clear', 'reasoning_effort']);
		expect(again.stdout).toMatch(/: no change \(remove reasoning_effort from model_map route "deep": it already says that\)$/);
	});

	it.for([
		{args: ['route', 'deep', '--clear', 'model'], stderr: /--clear: --clear model: every model route needs its model, so it cannot be removed\n {2}fix: change it with --model instead; --clear takes provider, base_url, reasoning_effort/},
		// There is no --name to point at.
		{args: ['route', 'deep', '--clear', 'name'], stderr: /--clear name: every model route needs its name, so it cannot be removed\n {2}fix: rename it with `config add-route NEW \.\.\.` and `config remove-route OLD`; --clear takes provider/},
		{args: ['route', 'deep', '--clear', 'colour'], stderr: /--clear: --clear colour: not a route field that can be removed\n {2}fix: --clear takes provider, base_url/},
		{args: ['route', 'deep', '--clear', 'provider'], stderr: /delegation\.backends\.model_map\.options\[1\]\.provider: needs "provider" or "base_url"\n {2}fix: a model route needs a provider \(e\.g\. openrouter\) or a base_url/},
		{args: ['route', 'deep', '--clear', 'provider', '--provider', 'nous'], stderr: /--clear provider and --provider both given\n {2}fix: give either --provider VALUE \(to change it\) or --clear provider \(to remove it\)/},
	])('config route --clear $args.3 … refused: exit 2, the field and the fix, the file unchanged', async ({args, stderr}, {expect, onTestFinished}) => {
		const test = home(onTestFinished);
		const run = await runCli(test, ['config', ...args]);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(stderr);
		expect(run.stdout).toBe('');
		expect(configOf(test)).toBe(config);
	});

	it.for([
		{args: ['set-mode', 'fastest'], stderr: /MODE: "fastest" is not a routing mode\n {2}fix: one of: model_map, profile_routes, default/},
		{args: ['route', 'deep', '--reasoning', 'extreme'], stderr: /--reasoning: "extreme" is not a reasoning level\n {2}fix: one of: none, minimal/},
		{args: ['route', 'deep', '--description', '  '], stderr: /--description: --description must not be empty/},
		{args: ['route', 'nope', '--model', 'x'], stderr: /no route "nope" in model_map or profile_routes\n {2}fix: name one of: fast, deep/},
		{args: ['route', 'deep'], stderr: /nothing to change/},
		{args: ['add-route', 'ghost', '--description', 'G'], stderr: /profile "ghost" does not exist.*\n {2}fix: create it with `hermes profile create ghost`/},
		{args: ['add-route', 'mid', '--description', 'M', '--model', 'm'], stderr: /--provider is missing\n {2}fix: a model route needs --model and --provider/},
		{args: ['add-route', 'fast', '--description', 'F', '--model', 'm', '--provider', 'p'], stderr: /model_map already has a route "fast"/},
		// The line of the default in the file on disk (17), not of the file as it would be without the route.
		{args: ['remove-route', 'fast'], stderr: /config\.yaml:17: delegation\.backends\.model_map\.default: "fast" is the default route of model_map, so it cannot be removed while it is\n {2}fix: make another route the default first \(`hermes-delegate config route deep --default`\), then remove it/},
		{args: ['set-mode', 'profile_routes'], stderr: /the active backend is profile_routes but it lists no profiles/},
	])('config $args.0 $args.1 … refused: exit 2, the field and the fix, the file unchanged', async ({args, stderr}, {expect, onTestFinished}) => {
		const test = home(onTestFinished);
		const run = await runCli(test, ['config', ...args]);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(stderr);
		expect(run.stdout).toBe('');
		expect(configOf(test)).toBe(config);
	});

	it('--config edits the file it names', async ({expect, onTestFinished}) => {
		const test = home(onTestFinished);
		const other = test.write('elsewhere/hermes.yaml', config);
		const run = await runCli(test, ['config', 'set-mode', 'default', '--config', other]);
		expect(run.exitCode).toBe(0);
		expect(readFileSync(other, 'utf8')).toBe(config.replace('  backend: model_map', '  backend: default'));
		expect(configOf(test)).toBe(config);
	});

	it('a save into a read-only file system leaves the file as it was and exits 2', async ({expect, onTestFinished}) => {
		const test = home(onTestFinished);
		// A private mount namespace where HERMES_HOME is mounted read-only (root ignores mode bits).
		const script = `mount --bind "$HERMES_HOME" "$HERMES_HOME" && mount -o remount,ro,bind "$HERMES_HOME" && exec "$0" "$@"`;
		const run = await execa('unshare', ['-m', 'sh', '-c', script, process.execPath, cliPath, 'config', 'route', 'deep', '--description', 'New.'], {env: {...process.env, HERMES_HOME: test.dir, NO_COLOR: '1'}, reject: false});
		expect(run.stderr).toMatch(/cannot save: .* is on a read-only file system; the file was not changed/);
		expect(run.exitCode).toBe(2);
		expect(configOf(test)).toBe(config);
	});

	it('a config in a HERMES_HOME this user cannot search is an error, not "no config"', async ({expect, onTestFinished}) => {
		const test = home(onTestFinished);
		chmodSync(test.dir, 0o700);
		// Root can search any folder, so the CLI runs as nobody.
		const forNobody = cliForUser(65534);
		onTestFinished(() => forNobody.remove());
		const run = await execa(process.execPath, [forNobody.cli, 'run', '--dry-run', '[{"goal":"x"}]'], {env: {...process.env, HERMES_HOME: test.dir}, reject: false, uid: 65534, gid: 65534});
		expect(run.stderr).toMatch(/config\.yaml: cannot be read: permission denied/);
		expect(run.exitCode).toBe(2);
	});
});

describe.concurrent('config show', () => {
	it('shows Hermes\'s own delegation keys as the built-in route, never the api_key', async ({expect, onTestFinished}) => {
		const test = home(onTestFinished, 'delegation:\n  model: google/gemini-3-flash-preview\n  provider: openrouter\n  api_key: sk-secret-9\n  max_concurrent_children: 6\n');
		const run = await runCli(test, ['config', 'show']);
		expect(run.exitCode).toBe(0);
		expect(run.stdout).toContain('built-in (Hermes\'s own delegation keys): openrouter · google/gemini-3-flash-preview · max_concurrent_children 6 · api_key set (plain text!)');
		expect(run.stdout).toContain('concurrency 6 (Hermes\'s delegation.max_concurrent_children)');
		expect(`${run.stdout}${run.stderr}`).not.toContain('sk-secret-9');
	});

	it('says when delegate.yaml does not exist, rather than naming it as if it were read', async ({expect, onTestFinished}) => {
		const test = home(onTestFinished);
		const settings = path.join(test.dir, 'delegate.yaml');
		const missing = await runCli(test, ['config', 'show']);
		expect(missing.stdout).toContain(`settings: ${settings} (not found: the defaults) · concurrency`);
		expect(JSON.parse((await runCli(test, ['config', 'show', '--json'])).stdout)).toMatchObject({settings: {file: settings, exists: false}});
		test.write('delegate.yaml', 'grace: 2\n');
		const found = await runCli(test, ['config', 'show']);
		expect(found.stdout).toContain(`settings: ${settings} · concurrency`);
		expect(found.stdout).toContain('grace 2s');
		expect(JSON.parse((await runCli(test, ['config', 'show', '--json'])).stdout)).toMatchObject({settings: {exists: true}});
	});
});

