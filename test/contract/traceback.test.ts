// The fake dies of a signal during start-up the way Hermes does, with a KeyboardInterrupt traceback
// on stderr. The recordings compare such a traceback by its shape only (the frames are the real
// program's source), so the fake's must have that shape and quote none of those frames.
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {signalGroup} from '../../src/core/process/group.js';
import {killStartedAgents, startFakeAgent} from '../helpers/processes.js';
import {recordedDir, recordingsMissing, recordedReleases} from '../helpers/recorded-help.js';
import {waitFor} from '../helpers/wait-for.js';

// A File line, its code line, maybe Python 3.11's caret line (a blank line instead, seen once).
const tracebackShape = /^Traceback \(most recent call last\):\n( {2}File "[^"]+", line \d+, in \S+\n( {4}\S.*\n)?( +[~^]+\n|\n)?)+KeyboardInterrupt\n$/;

type Case = {case: string; stderr: string | null; replay?: {stderr?: string}};

function recordedTracebacks(): Array<{name: string; traceback: string}> {
	return recordedReleases.flatMap((version) => readdirSync(path.join(recordedDir, version)).filter((file) => file.endsWith('.json')).flatMap((file) => {
		const recorded = JSON.parse(readFileSync(path.join(recordedDir, version, file), 'utf8')) as Case;
		const at = recorded.stderr?.indexOf('Traceback (most recent call last):') ?? -1;
		return recorded.replay?.stderr?.startsWith('traceback-shape') && at >= 0 ? [{name: `${version}/${recorded.case}`, traceback: recorded.stderr!.slice(at)}] : [];
	}));
}

/** The code line and the file's name of every frame. */
function frames(traceback: string): string[] {
	return [...traceback.matchAll(/^ {2}File "(?:[^"]*\/)?([^"/]+)", line \d+, in \S+\n(?: {4}(\S.*))?$/gm)].flatMap((match) => [match[1]!, match[2] ?? '']).filter(Boolean);
}

describe.skipIf(recordingsMissing() !== undefined)('the fake\'s KeyboardInterrupt traceback, held against the recorded ones', () => {
	it('has the recorded tracebacks\' shape and none of their frames', async () => {
		onTestFinished(killStartedAgents);
		const agent = await startFakeAgent('[fake:forever] [fake:ready] [fake:duration=0.1]', '-Q');
		await waitFor(() => agent.stdout.lines().includes('READY'), {message: 'READY'});
		signalGroup(agent.process.pid, 'SIGTERM');
		expect(await agent.process.exited).toEqual({exitCode: null, signal: 'SIGINT'});
		await agent.process.closed;
		const fake = agent.stderr.text;

		const real = recordedTracebacks();
		expect(real.map((entry) => entry.name)).toContain('0.19.0/sigterm-at-1.5s');
		for (const entry of real) expect(entry.traceback, entry.name).toMatch(tracebackShape);
		expect(fake).toMatch(tracebackShape);
		const quoted = new Set(real.flatMap((entry) => frames(entry.traceback)));
		expect(frames(fake).filter((line) => quoted.has(line))).toEqual([]);
	});
});
