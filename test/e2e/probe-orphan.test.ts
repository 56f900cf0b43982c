// The Hermes probe (`hermes --version`, `hermes chat --help`) runs before the run folder exists, so
// no record can tell `gc` about it: a probe that hangs must die with hermes-delegate, even by SIGKILL.
import {chmodSync, existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {isLive, readProcStat} from '../../src/core/process/proc-tree.js';
import {makeHome, startCli, tasksJson} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/wait-for.js';

const hasSetpriv = (process.env['PATH'] ?? '').split(':').some(dir => existsSync(path.join(dir, 'setpriv')));

describe.skipIf(process.platform !== 'linux' || !hasSetpriv)('a hanging Hermes probe', () => {
	it('dies when hermes-delegate is killed with SIGKILL', async () => {
		const home = makeHome();
		onTestFinished(() => home.remove());
		const pidFile = path.join(home.dir, 'probe.pid');
		// A Hermes whose --version never answers, and says which process it is.
		const bin = home.write('bin/hermes', `#!/bin/sh\necho $$ > ${pidFile}\nexec sleep 600\n`);
		chmodSync(bin, 0o755);
		const cli = startCli(home, ['run', tasksJson({goal: 'Never planned'}), '--hermes-bin', bin], {noHermesBin: true});
		await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), {message: 'the probe to start'});
		const probe = Number(readFileSync(pidFile, 'utf8'));
		onTestFinished(() => {
			try {
				process.kill(probe, 'SIGKILL');
			} catch {}
		});

		cli.kill('SIGKILL');
		await cli;
		// Gone, or a zombie waiting for whoever adopted it: either way no longer running.
		await waitFor(() => {
			const stat = readProcStat(probe);
			return stat === undefined || !isLive(stat);
		}, {message: `the probe (pid ${probe}) to die with hermes-delegate`, timeoutMs: 10_000});
		expect(readProcStat(probe)?.state ?? 'gone').toMatch(/gone|Z|X/);
	});
});
