// Two demos at once share one demo home. The second one's pruning (a dry run prunes too) must not
// delete the run folder of the first while it is still running.
import {existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {demoHomePath, demoRunsKept} from '../../src/core/input/demo.js';
import {runsDir} from '../../src/core/hermes/home.js';
import {makeHome, recordedGroups, runCli, startCli, tasksJson} from '../helpers/run-cli.js';
import {waitFor} from '../helpers/wait-for.js';

describe('demo pruning', () => {
	it('keeps the run of a demo that is still running, even past the number of runs kept', async () => {
		const home = makeHome();
		const tmp = mkdtempSync(path.join(tmpdir(), 'hermes-delegate-tmp-'));
		onTestFinished(() => {
			home.remove();
			rmSync(tmp, {recursive: true, force: true});
		});
		const env = {TMPDIR: tmp};
		const runs = runsDir(demoHomePath({}, tmp));
		const first = startCli(home, ['run', '--demo', tasksJson({goal: 'Wait for the operator', context: '[fake:forever]'})], {env});
		await waitFor(() => existsSync(runs) && readdirSync(runs).some(run => recordedGroups(path.join(runs, run)).length > 0), {message: 'the first demo\'s agent'});
		const [running] = readdirSync(runs);
		// Newer runs of demos that have ended: the running one is now the oldest, beyond the kept ones.
		for (let index = 0; index < demoRunsKept + 2; index++) {
			mkdirSync(path.join(runs, `20990101-0000${String(index).padStart(2, '0')}-abcdef`));
		}

		const second = await runCli(home, ['run', '--demo', '--dry-run'], {env});
		expect(second.exitCode).toBe(0);
		expect(readdirSync(runs)).toHaveLength(demoRunsKept);
		expect(existsSync(path.join(runs, running!, 'logs'))).toBe(true);

		first.kill('SIGINT');
		const finished = await first;
		expect(finished.exitCode).toBe(130);
		expect(existsSync(path.join(runs, running!, 'results.json'))).toBe(true);
	}, 60_000);
});
