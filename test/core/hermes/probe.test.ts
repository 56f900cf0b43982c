import {chmodSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {parseChatHelp, parseVersion, parseVersionLine, probeHermes} from '../../../src/core/hermes/probe.js';
import {fakeAgentPath} from '../../helpers/processes.js';
import {recordedHelp, recordingsMissing} from '../../helpers/recorded-help.js';

describe('parseChatHelp', () => {
	const real = it.skipIf(recordingsMissing() !== undefined);

	real('reads 0.19.0: -Q and the chat flags, no --reasoning, no stream-json, no --query-file', () => {
		const flags = parseChatHelp(recordedHelp('0.19.0', 'chat-help'));
		expect(flags).toEqual({quiet: true, reasoning: false, streamJson: false, queryFile: false, runBudget: false, maxTurns: true, toolsets: true, skills: true, worktree: true, source: true, provider: true, cli: true});
	});

	real('reads 0.20.0: adds --reasoning only', () => {
		const flags = parseChatHelp(recordedHelp('0.20.0', 'chat-help'));
		expect(flags).toMatchObject({quiet: true, reasoning: true, streamJson: false, queryFile: false});
	});

	real('finds --format stream-json and --query-file where they are listed', () => {
		const help = recordedHelp('0.20.0', 'chat-help').replace('  -Q, --quiet', '  --format {text,stream-json}\n                        Output format\n  --query-file PATH     Read the query from PATH\n  -Q, --quiet');
		expect(parseChatHelp(help)).toMatchObject({streamJson: true, queryFile: true});
	});

	it('does not count a flag that a help sentence merely mentions', () => {
		const help = 'usage: hermes chat [-h] [-Q]\n\noptions:\n  -Q, --quiet           Quiet. Unlike --reasoning, this ...\n';
		expect(parseChatHelp(help)).toMatchObject({quiet: true, reasoning: false});
	});
});

describe('parseVersion', () => {
	it('reads the version from the first line', () => {
		expect(parseVersion('Hermes Agent v0.19.0 (2026.7.20)\nInstall directory: /x\n')).toBe('0.19.0');
		expect(parseVersion('something else')).toBeNull();
	});

	it('reads what a 0.21 source install prints in place of the release (upstream hermes_cli/version_info.py)', () => {
		expect(parseVersionLine('Hermes Agent v0.21.5+3160.g42d70d2.dirty (2026.9.24)\n')).toEqual({version: '0.21.5', label: '0.21.5+3160.g42d70d2.dirty'});
		expect(parseVersionLine('Hermes Agent v0.21.5 (2026.9.24) · upstream 42d70d2\n')).toEqual({version: '0.21.5', label: '0.21.5'});
		// No release tag reachable, or no provenance at all: no release is guessed.
		expect(parseVersionLine('Hermes Agent vgit.42d70d2.dirty (2026.9.24)\n')).toEqual({version: null, label: 'git.42d70d2.dirty'});
		expect(parseVersionLine('Hermes Agent vunknown\n')).toEqual({version: null, label: 'unknown'});
	});
});

describe('probeHermes', () => {
	function fakeBin(script: string): string {
		const dir = mkdtempSync(path.join(tmpdir(), 'hd-probe-'));
		const file = path.join(dir, 'hermes');
		writeFileSync(file, `#!/bin/sh\n${script}\n`);
		chmodSync(file, 0o755);
		return file;
	}

	it('asks the binary and caches chat --help by binary and version', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'hd-probe-'));
		const countFile = path.join(dir, 'count');
		const bin = fakeBin(`if [ "$1" = --version ]; then echo "Hermes Agent v0.20.0 (2026.8.3)"; exit 0; fi\necho x >> ${countFile}\nFAKE_HERMES_VERSION=0.20.0 exec ${fakeAgentPath} "$@"`);
		const cachePath = path.join(dir, 'cache.json');
		const first = await probeHermes(bin, {env: process.env, cachePath});
		const second = await probeHermes(bin, {env: process.env, cachePath});
		expect(first).toMatchObject({version: '0.20.0', probed: true, flags: {reasoning: true}});
		expect(second).toEqual(first);
		expect(readFileSync(countFile, 'utf8').trim().split('\n')).toHaveLength(1);
	});

	it('asks again when the cached entry does not hold every flag (written by an older release), keeping the other entries', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'hd-probe-'));
		const countFile = path.join(dir, 'count');
		const bin = fakeBin(`if [ "$1" = --version ]; then echo "Hermes Agent v0.20.0 (2026.8.3)"; exit 0; fi\necho x >> ${countFile}\nFAKE_HERMES_VERSION=0.20.0 exec ${fakeAgentPath} "$@"`);
		const cachePath = path.join(dir, 'cache.json');
		await probeHermes(bin, {env: process.env, cachePath});
		const cache = JSON.parse(readFileSync(cachePath, 'utf8')) as {entries: Record<string, {key: string; flags: Record<string, boolean>}>};
		delete cache.entries[bin]!.flags['provider'];
		cache.entries['/other/hermes'] = {key: 'other', flags: {}};
		writeFileSync(cachePath, JSON.stringify(cache));
		const again = await probeHermes(bin, {env: process.env, cachePath});
		expect(again.flags.provider).toBeTypeOf('boolean');
		expect(readFileSync(countFile, 'utf8').trim().split('\n')).toHaveLength(2);
		expect(Object.keys((JSON.parse(readFileSync(cachePath, 'utf8')) as {entries: object}).entries)).toContain('/other/hermes');
	});

	it('reports a binary that fails instead of throwing', async () => {
		const bin = fakeBin('echo "Traceback: boom" >&2; exit 1');
		const caps = await probeHermes(bin, {env: process.env});
		expect(caps.probed).toBe(false);
		expect(caps.problem).toMatch(/--version` failed: Traceback: boom/);
		expect(caps.flags.reasoning).toBe(false);
	});
});
