// Where the demo keeps its HERMES_HOME: one per user in the temp folder (the temp folder is shared
// by everyone on the machine), or where HERMES_DELEGATE_DEMO_HOME says (tests give each their own).
import {mkdirSync, symlinkSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {createDemoHome, demoHomeEnv, demoHomePath} from '../../../src/core/input/demo.js';
import {InputError} from '../../../src/core/errors.js';
import {scratchAfterEach} from '../../helpers/scratch.js';

const scratch = scratchAfterEach();

describe('the demo home', () => {
	it('is the user\'s own in the temp folder: its name carries the uid', () => {
		expect(demoHomePath({}, '/some/tmp')).toBe(path.join('/some/tmp', `hermes-delegate-demo-${process.getuid!()}`));
	});

	it('is where HERMES_DELEGATE_DEMO_HOME says, made absolute; an empty value counts as unset', () => {
		expect(demoHomePath({[demoHomeEnv]: '/elsewhere/demo'}, '/some/tmp')).toBe('/elsewhere/demo');
		expect(demoHomePath({[demoHomeEnv]: 'relative/demo'}, '/some/tmp')).toBe(path.resolve('relative/demo'));
		expect(demoHomePath({[demoHomeEnv]: ' '}, '/some/tmp')).toBe(demoHomePath({}, '/some/tmp'));
	});

	it('is made there with its config, and a chosen home that is not a folder of ours is refused with the variable named', () => {
		const tmp = scratch.folder('demo-home-');
		const chosen = path.join(tmp, 'mine');
		expect(createDemoHome({[demoHomeEnv]: chosen}).configPath).toBe(path.join(chosen, 'config.yaml'));

		const elsewhere = path.join(tmp, 'elsewhere');
		mkdirSync(elsewhere);
		symlinkSync(elsewhere, path.join(tmp, 'link'));
		let refused: unknown;
		try {
			createDemoHome({[demoHomeEnv]: path.join(tmp, 'link')});
		} catch (error) {
			refused = error;
		}

		expect(refused instanceof InputError && refused.describe()).toMatch(/is not a folder of yours.*HERMES_DELEGATE_DEMO_HOME/s);
	});
});
