import {afterEach, vi} from 'vitest';
import './keep-sqlite-objects.js';

// vi.waitFor gives up after 1 s unless told otherwise. A frame React has deferred to the next
// turn of the event loop loses that race when a loaded machine stalls this worker for a second,
// so UI tests wait as long as helpers/wait-for.ts does: a safety net, never what is asserted.
const waitFor = vi.waitFor.bind(vi);
vi.waitFor = (callback, options) => waitFor(callback, typeof options === 'number' ? options : {timeout: 15_000, ...options});

// Fail any test that triggers a React act(...) warning: such a warning means a test
// observed a frame React had not finished, so its assertion is not trustworthy.
const original = console.error;
let actWarnings: string[] = [];

console.error = (...args: unknown[]) => {
	const text = args.map(String).join(' ');
	if (text.includes('not wrapped in act(')) {
		actWarnings.push(text);
		return;
	}

	original(...args);
};

afterEach(() => {
	const warnings = actWarnings;
	actWarnings = [];
	if (warnings.length > 0) {
		throw new Error(`React act() warning(s):\n${warnings.join('\n')}`);
	}
});
