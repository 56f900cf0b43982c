// Chalk decides on colour once, when it is first imported, from the environment; a test run has no
// TTY, so without this every theme would render colourless and assertions about colour could not
// fail. Import this first in a test file, before anything that imports Ink.
import {afterAll} from 'vitest';

const previous = process.env['FORCE_COLOR'];
process.env['FORCE_COLOR'] = '3';

afterAll(() => {
	if (previous === undefined) {
		delete process.env['FORCE_COLOR'];
	} else {
		process.env['FORCE_COLOR'] = previous;
	}
});
