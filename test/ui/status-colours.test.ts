// Every status reads as itself: in a colour theme no two statuses share a colour (refused was
// grey like queued, timed out yellow like cancelling), and without colour every badge has its
// own symbol and word.
import {describe, expect, test} from 'vitest';
import {listThemes, loadTheme} from '../../src/core/theme/themes.js';
import {statusLabels, statusSymbols} from '../../src/ui/text/format.js';

describe('status colours', () => {
	test.each(listThemes().filter(name => name !== 'no-color'))('the %s theme gives every status its own colour', name => {
		const colours = loadTheme(name, {noColor: false}).colors.status;
		const byColour = new Map<string, string[]>();
		for (const [status, colour] of Object.entries(colours)) {
			expect(colour, `${name}: status.${status}`).toBeDefined();
			byColour.set(colour!, [...(byColour.get(colour!) ?? []), status]);
		}

		expect([...byColour.values()].filter(statuses => statuses.length > 1)).toEqual([]);
	});

	test('without colour every badge still differs: its own symbol and its own word', () => {
		expect(new Set(Object.values(statusSymbols)).size).toBe(Object.keys(statusSymbols).length);
		expect(new Set(Object.values(statusLabels)).size).toBe(Object.keys(statusLabels).length);
	});
});
