// Fail any test that triggers a React act(...) warning: such a warning means a test
// observed a frame React had not finished, so its assertion is not trustworthy.
import {afterEach} from 'vitest';

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
