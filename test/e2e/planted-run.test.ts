// Another local user plants a run in your demo home (a predictable name in the shared temp folder),
// its process records naming a process of yours: `gc` must not kill it, and `ls` must not show the
// run; creating the demo home there is refused with the fix. The planting is
// done as `nobody` with runuser, as an attacker would.
import {spawn, spawnSync} from 'node:child_process';
import {chmodSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {readProcStat} from '../../src/core/process/proc-tree.js';
import {isProcessRunning} from '../helpers/processes.js';
import {makeHome, runCli} from '../helpers/run-cli.js';

const nobody = 65_534;
const canRunAsNobody = process.getuid?.() === 0 && spawnSync('runuser', ['-u', 'nobody', '--', 'true']).status === 0;
if (!canRunAsNobody) console.log('planted-run: skipped, it takes root and runuser to plant a run as another user');

/** Runs this script as nobody: it makes the demo home and a run in it whose records name `victim`. */
const plant = String.raw`
const fs = require('node:fs'), path = require('node:path');
const [home, runId, victimPid, victimTicks, bootId] = process.argv.slice(1);
const dir = path.join(home, 'delegate', 'runs', runId);
fs.mkdirSync(path.join(dir, 'logs'), {recursive: true, mode: 0o755});
fs.writeFileSync(path.join(dir, 'owner.json'), JSON.stringify({pid: 999999, start_ticks: 1, boot_id: bootId, host: null, at: new Date().toISOString()}));
fs.writeFileSync(path.join(dir, 'processes.jsonl'), JSON.stringify({event: 'started', task: 't01', pid: Number(victimPid), pgid: Number(victimPid), start_ticks: Number(victimTicks), at: new Date().toISOString()}) + '\n');
`;

describe.skipIf(!canRunAsNobody)('a run planted in the demo home by another user', () => {
	it('is neither listed nor acted on by gc, and the demo refuses that home with the fix', {timeout: 60_000}, async () => {
		const test = makeHome();
		onTestFinished(() => test.remove());
		// A shared temp folder, as /tmp is: anyone may make a name in it.
		const shared = mkdtempSync(path.join(tmpdir(), 'hermes-delegate-shared-'));
		chmodSync(shared, 0o1777);
		onTestFinished(() => rmSync(shared, {recursive: true, force: true}));
		const demoHome = path.join(shared, `hermes-delegate-demo-${process.getuid!()}`);

		// Our process, alone in its group, that the planted records name.
		const victim = spawn('sleep', ['600'], {detached: true, stdio: 'ignore'});
		onTestFinished(() => {
			victim.kill('SIGKILL');
		});
		const ticks = readProcStat(victim.pid!)!.startTicks;
		const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
		const planted = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, '-e', plant, demoHome, '20260101-000000-abcdef', String(victim.pid), String(ticks), bootId], {encoding: 'utf8'});
		expect(planted.status, planted.stderr).toBe(0);

		const env = {TMPDIR: shared, HERMES_DELEGATE_DEMO_HOME: ''};
		const gc = await runCli(test, ['gc', '--grace', '0'], {env});
		expect(isProcessRunning(victim.pid!), 'gc killed the process the planted run named').toBe(true);
		expect(gc.stderr).toContain(`left alone ${demoHome}: it belongs to uid ${nobody}, not to you (uid 0); its process records could name any process. If ${demoHome} is yours, \`chmod go-w ${demoHome}\`; if it is not, remove it`);
		expect(gc.stdout).toContain('no orphans');

		const listed = JSON.parse((await runCli(test, ['ls', '--json'], {env})).stdout) as Array<{run_id: string}>;
		expect(listed.map(run => run.run_id)).not.toContain('20260101-000000-abcdef');

		const demo = await runCli(test, ['run', '--demo', '--dry-run'], {env});
		expect(demo.exitCode).toBe(2);
		expect(demo.stderr).toContain(`the demo home ${demoHome} is not a folder of yours alone: it belongs to uid ${nobody}`);
	});
});
