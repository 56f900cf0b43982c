// The host's start, phase by phase, as host.log says it.
import {describe, expect, it} from 'vitest';
import {specCame, StartClock} from '../../src/host/start-clock.js';

describe('StartClock', () => {
	it('says each phase\'s own time, the total, and the time since the spec came when one did', () => {
		const clock = new StartClock();
		clock.mark('node and modules', 200);
		clock.mark(specCame, 5000);
		clock.mark('batch prepared', 5300.4);
		clock.mark('socket and plan.json', 5350);
		expect(clock.describe()).toBe('ready 350 ms after its spec came (5350 ms after the process began): node and modules 200 · spec came 4800 · batch prepared 300 · socket and plan.json 50 (ms each)');
	});

	it('without a spec mark, only the total', () => {
		const clock = new StartClock();
		clock.mark('a', 10);
		clock.mark('b', 25);
		expect(clock.describe()).toBe('ready 25 ms after the process began: a 10 · b 15 (ms each)');
	});
});
