// o with no pager to run: no $PAGER and no less on PATH is said at once, and the
// terminal is never taken from the dashboard for it.
import {describe, expect, test} from 'vitest';
import {showLogInPager} from '../../src/commands/pager.js';

describe('the pager', () => {
	test('no $PAGER and no less: a notice that says what to set, and the dashboard keeps the terminal', async () => {
		let suspended = false;
		const notice = await showLogInPager('20260101-000000-abcdef', 't01', {PATH: '/nonexistent-dir'}, {
			async suspend() {
				suspended = true;
			},
			resume() {},
		});
		expect(notice).toBe('no pager: $PAGER is not set and less is not installed; set PAGER (e.g. PAGER=more), or read it with `hermes-delegate logs 20260101-000000-abcdef t01`');
		expect(suspended).toBe(false);
	});
});
