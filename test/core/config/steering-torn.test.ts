// The runner host's watcher and a config.yaml another program holds half-written: it waits, says
// so once, and re-plans only from the whole file. Half of it is valid YAML with
// fewer routes, from which the batch would have refused tasks that were fine a moment later.
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {loadHermesConfig} from '../../../src/core/config/config.js';
import {BatchSteering} from '../../../src/core/config/steering.js';
import type {DelegationConfig, SteerOutcome} from '../../../src/core/types.js';
import {waitFor, waitForLine} from '../../helpers/wait-for.js';

const config = (routes: string[]) => `model: anthropic/claude-sonnet-5
delegation:
  backend: model_map
  backends:
    model_map:
      options:
${routes.map(name => `        - name: ${name}
          description: "Route ${name}."
          provider: openrouter
          model: m-${name}
`).join('')}      default: fast
`;

describe('the config watcher and a half-written config.yaml', () => {
	it('re-plans from the whole file once its writer is done, never from the half', {timeout: 60_000}, async () => {
		const home = mkdtempSync(path.join(tmpdir(), 'steering-torn-'));
		onTestFinished(() => rmSync(home, {recursive: true, force: true}));
		const file = path.join(home, 'config.yaml');
		writeFileSync(file, config(['fast', 'deep']));
		const plans: DelegationConfig[] = [];
		const steering = new BatchSteering(loadHermesConfig({configPath: file, hermesHome: home, explicit: true}), {runDir: home, applyRouting(delegation) {
			plans.push(delegation);
			return [];
		}});
		const outcomes: SteerOutcome[] = [];
		const stop = steering.watch(outcome => outcomes.push(outcome), 20);
		onTestFinished(stop);

		// The new text adds a third route; its first half (up to the second route) parses on its own.
		const next = config(['fast', 'deep', 'wide']);
		const half = next.slice(0, next.indexOf('        - name: deep'));
		const writer = spawn(process.execPath, ['-e', `const fs = require('node:fs');
const fd = fs.openSync(process.argv[1], 'w');
fs.writeSync(fd, process.argv[2]);
process.stdout.write('HALF\\n');
process.stdin.once('data', () => { fs.writeSync(fd, process.argv[3]); fs.closeSync(fd); process.exit(0); });`, file, half, next.slice(half.length)], {stdio: ['pipe', 'pipe', 'inherit']});
		onTestFinished(() => {
			writer.kill('SIGKILL');
		});
		await waitForLine(writer.stdout, /HALF/);
		await waitFor(() => outcomes.some(outcome => !outcome.ok && outcome.message.includes('is still being written')), {message: 'the watcher to see the file being written'});
		expect(plans).toEqual([]);

		writer.stdin.write('go\n');
		await waitFor(() => plans.length > 0, {message: 'a re-plan from the whole file'});
		expect(plans.map(plan => plan.modelMap.options.map(option => option.name))).toEqual([['fast', 'deep', 'wide']]);
	});
});
