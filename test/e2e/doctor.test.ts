// `doctor` against stand-in binaries that answer --version and chat --help as Hermes 0.19.0 and
// 0.20.0 did (their recorded help, ../shared/hermes-agent/recorded; or the fake agent where what
// the help says does not matter), and homes with the settings that change a batch.
import {chmodSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {fakeAgentPath} from '../helpers/processes.js';
import {recordedHelp, recordingsMissing, type RecordedRelease} from '../helpers/recorded-help.js';
import {makeHome, runCli, type TestHome} from '../helpers/run-cli.js';

let home: TestHome;
afterEach(() => home.remove());

const withRecordedHelp = it.skipIf(recordingsMissing() !== undefined);

function hermesLike(version: RecordedRelease): string {
	const help = recordedHelp(version, 'chat-help');
	const file = home.write('bin/hermes', `#!/bin/sh\nif [ "$1" = --version ]; then echo "Hermes Agent v${version} (2026.7.20)"; exit 0; fi\ncat <<'HELP'\n${help}\nHELP\n`);
	chmodSync(file, 0o755);
	return file;
}

function fakeHermes(version: RecordedRelease | '0.21.5'): string {
	const file = home.write('bin/hermes', `#!/bin/sh\nFAKE_HERMES_VERSION=${version} exec ${fakeAgentPath} "$@"\n`);
	chmodSync(file, 0o755);
	return file;
}

const config = `model: {default: m1}
security: {allow_lazy_installs: false, tirith_enabled: false}
delegation:
  backend: model_map
  backends:
    model_map:
      options:
        - {name: deep, description: careful, provider: anthropic, model: opus, reasoning_effort: high}
        - {name: local, description: local server, base_url: "http://127.0.0.1:9/v1", model: qwen}
`;

describe('doctor', () => {
	withRecordedHelp('says what this Hermes passes and what it cannot, per route, and exits 0 on warnings alone', async () => {
		home = makeHome(config);
		const result = await runCli(home, ['doctor', '--hermes-bin', hermesLike('0.19.0')]);
		expect(result.exitCode).toBe(0);
		expect(result.stdout).toContain('Hermes 0.19.0: chat has -Q');
		expect(result.stdout).toMatch(/! route deep: passes -m opus --provider anthropic; .*reasoning_effort high is not passed/);
		expect(result.stdout).toMatch(/✓ route local: passes -m qwen --provider lmstudio endpoint http:\/\/127\.0\.0\.1:9\/v1/);
		expect(result.stdout).not.toContain('lazy installs');
	});

	withRecordedHelp('passes the reasoning effort on 0.20.0', async () => {
		home = makeHome(config);
		const result = await runCli(home, ['doctor', '--hermes-bin', hermesLike('0.20.0')]);
		expect(result.stdout).toMatch(/✓ route deep: passes -m opus --provider anthropic --reasoning high/);
	});

	it('warns about lazy installs, a missing tirith and a sticky active profile, each with its fix', async () => {
		home = makeHome('model: {default: m1}\n');
		home.write('active_profile', 'coder\n');
		const result = await runCli(home, ['doctor', '--hermes-bin', fakeHermes('0.19.0'), '--json']);
		const report = JSON.parse(result.stdout) as {ok: boolean; hermes: {version: string}; findings: Array<{level: string; topic: string; fix?: string}>};
		expect(report.ok).toBe(true);
		expect(report.hermes.version).toBe('0.19.0');
		for (const topic of ['lazy installs', 'tirith', 'active profile']) {
			expect(report.findings.find(finding => finding.topic === topic)).toMatchObject({level: 'warn', fix: expect.any(String)});
		}
	});

	it('a missing hermes is a problem: exit 1 and the fix', async () => {
		home = makeHome(config);
		const result = await runCli(home, ['doctor', '--hermes-bin', path.join(home.dir, 'nope')]);
		expect(result.exitCode).toBe(1);
		expect(result.stdout).toMatch(/✗ hermes: .*does not exist/);
		expect(result.stdout).toContain('fix: install Hermes Agent');
		// One fix line for the one finding, not the resolver's and doctor's both.
		expect(result.stdout.match(/^ +fix: .*install Hermes Agent/gm)).toHaveLength(1);
		// The routes' flags are not judged against a Hermes that was not found: no warning about them.
		expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('1 problem found (the ✗ lines)');
	});

	it('no Hermes on PATH: says it was not found, where it looked and the fix, and reasons about no Hermes\'s flags', async () => {
		home = makeHome(`${config}display: {interface: tui}\n`);
		const empty = path.join(home.dir, 'empty-bin');
		home.write('empty-bin/README', 'no hermes here\n');
		const result = await runCli(home, ['doctor'], {env: {PATH: `${empty}${path.delimiter}${path.dirname(process.execPath)}`}});
		expect(result.exitCode).toBe(1);
		expect(result.stdout).toContain(`✗ hermes: Hermes was not found: no executable "hermes" in any folder of PATH (looked in PATH: ${empty}, ${path.dirname(process.execPath)})`);
		expect(result.stdout).toMatch(/^ +fix: install Hermes Agent .*--hermes-bin \/ HERMES_BIN/m);
		// Nothing is said of "the installed Hermes" or "this Hermes" as if one had answered.
		expect(result.stdout).not.toMatch(/installed Hermes|this Hermes lists|has no --reasoning/);
		expect(result.stdout).toMatch(/✓ route deep: asks for -m opus --provider anthropic --reasoning high; not checked against Hermes's flags \(no Hermes was probed\)/);
		expect(result.stdout).toMatch(/! interface: .*display\.interface is tui; whether this Hermes takes --cli .* is not known: no Hermes was probed/);
		expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(/^1 problem found \(the ✗ lines\)/);
	});

	// The fake agent, not the recorded help: what this checks does not depend on Hermes's exact
	// words, and a clone with nothing beside it runs it too.
	it('never says "no problems found" under warnings', async () => {
		home = makeHome(config);
		const result = await runCli(home, ['doctor', '--hermes-bin', fakeHermes('0.19.0')]);
		expect(result.exitCode).toBe(0);
		const warnings = result.stdout.split('\n').filter(text => text.startsWith('! ')).length;
		expect(warnings).toBeGreaterThan(0);
		expect(result.stdout).not.toContain('no problems found');
		expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(`no problems, but ${warnings} warning${warnings === 1 ? '' : 's'} (the ! lines)`);
	});

	it('reports the concurrency run and tui use: Hermes\'s max_concurrent_children unless delegate.yaml sets one', async () => {
		home = makeHome(config.replace('delegation:\n', 'delegation:\n  max_concurrent_children: 5\n'));
		const fromHermes = await runCli(home, ['doctor', '--hermes-bin', fakeHermes('0.20.0')]);
		expect(fromHermes.stdout).toMatch(/load: concurrency 5 on/);
		const planned = await runCli(home, ['run', '--dry-run', JSON.stringify(Array.from({length: 6}, (_, index) => ({goal: `task ${index}`})))]);
		expect((JSON.parse(planned.stdout) as {concurrency: number}).concurrency).toBe(5);
		home.write('delegate.yaml', 'concurrency: 2\n');
		expect((await runCli(home, ['doctor', '--hermes-bin', fakeHermes('0.20.0')])).stdout).toMatch(/load: concurrency 2 on/);
	});

	it('names the release and how it is known, and each 0.21 change that applies to a home', async () => {
		home = makeHome(`${config}max_concurrent_sessions: 2\ndisplay:\n  interface: tui\n`);
		home.write('profiles/coder/config.yaml', 'model: {default: m2}\ngateway:\n  max_concurrent_sessions: 1\n');
		const result = await runCli(home, ['doctor', '--hermes-bin', fakeHermes('0.21.5'), '--json']);
		const report = JSON.parse(result.stdout) as {findings: Array<{level: string; topic: string; message: string; fix?: string}>};
		const about = (topic: string) => report.findings.filter(finding => finding.topic === topic);
		expect(about('release')).toEqual([expect.objectContaining({level: 'ok', message: expect.stringMatching(/^Hermes 0\.21\.5 is known from reading upstream's source only/)})]);
		expect(about('interface')).toEqual([expect.objectContaining({level: 'ok', message: expect.stringMatching(/display\.interface is tui; hermes-delegate passes --cli/)})]);
		expect(about('session cap')).toEqual([expect.objectContaining({message: expect.stringMatching(/max_concurrent_sessions 2: at most 2 sessions at once/)})]);
		expect(about('spend')).toEqual([expect.objectContaining({message: expect.stringMatching(/lower bound/)})]);
		expect(about('fan-out')[0]!.message).toMatch(/up to 10 \(Hermes's default\) children/);
	});

	it('a home config.yaml with a key written twice is a problem, with the line and the fix', async () => {
		home = makeHome(`${config}    profile_routes:\n      profiles:\n        - {name: coder, description: writes code}\n`);
		home.write('profiles/coder/config.yaml', 'model: {default: m2}\ndisplay:\n  compact: true\n  compact: false\n');
		const result = await runCli(home, ['doctor', '--hermes-bin', fakeHermes('0.21.5')]);
		expect(result.exitCode).toBe(1);
		expect(result.stdout).toMatch(/✗ config keys: .*profiles\/coder\/config\.yaml:4: the key "compact" is written twice in one map/);
		expect(result.stdout).toContain('fix: keep one "compact:" in that map');
	});

	withRecordedHelp('a recorded release is named as verified', async () => {
		home = makeHome(config);
		expect((await runCli(home, ['doctor', '--hermes-bin', hermesLike('0.20.0')])).stdout).toContain('✓ release: Hermes 0.20.0 is verified by recorded runs of the real release');
	});
});
