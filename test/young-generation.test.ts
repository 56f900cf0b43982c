// The CLI caps V8's young generation (src/young-generation.ts): a process that allocates as the
// dashboard does keeps it at the cap instead of letting it double to V8's maximum. Measured in
// real processes, since a test worker's heap has long grown: a probe loaded with `--import`
// allocates, then reports the young generation's size.
import {execa} from 'execa';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach, describe, expect, it} from 'vitest';
import {youngGenerationCap} from '../src/young-generation.js';
import {makeHome, runCli, tasksJson, type TestHome} from './helpers/run-cli.js';

const probe = fileURLToPath(new URL('fixtures/young-generation-probe.mjs', import.meta.url));

let home: TestHome | undefined;
afterEach(() => home?.remove());

describe('the young generation', () => {
	it('grows past the cap in a plain node process that allocates like the dashboard (the control)', async () => {
		home = makeHome();
		const outFile = path.join(home.dir, 'young-generation');
		await execa(process.execPath, ['--import', probe, '-e', ''], {env: {OUT_FILE: outFile}});

		expect(Number(readFileSync(outFile, 'utf8'))).toBeGreaterThan(youngGenerationCap);
	});

	it('stays at the cap in hermes-delegate doing the same while its batch runs', async () => {
		home = makeHome();
		const outFile = path.join(home.dir, 'young-generation');
		const doneFile = path.join(home.dir, 'probe-done');
		// The probe starts once the CLI has asked the agent anything (its argv file appears), i.e.
		// after start-up, and the agent answers once the probe is done.
		const run = await runCli(home, ['run', tasksJson({goal: 'wait for the probe', context: `[fake:until-file=${doneFile}]`})], {
			env: {NODE_OPTIONS: `--import ${probe}`, PROBE_MAIN: 'cli.js', START_FILE: home.argvFile, OUT_FILE: outFile, DONE_FILE: doneFile},
		});

		expect(run.exitCode).toBe(0);
		expect(Number(readFileSync(outFile, 'utf8'))).toBeLessThanOrEqual(youngGenerationCap);
	});
});
