// Checks of the flag values commander hands over as text: each names its flag and the fix.
import {InputError} from '../core/errors.js';
import {dashboardAgentNice} from '../core/process/priority.js';

export function parseNumber(raw: string, flag: string, rules: {integer?: boolean; min: number; exclusiveMin?: boolean}): number {
	const value = Number(raw);
	const tooSmall = rules.exclusiveMin ? value <= rules.min : value < rules.min;
	if (raw.trim() === '' || !Number.isFinite(value) || (rules.integer && !Number.isInteger(value)) || tooSmall) {
		const kind = rules.integer ? 'a whole number' : 'a number';
		throw new InputError(`${flag} must be ${kind} ${rules.exclusiveMin ? 'above' : 'of at least'} ${rules.min}, got "${raw}"`, {}, `e.g. ${flag} ${rules.integer ? 4 : 2.5}`);
	}

	return value;
}

/** --agent-nice: 0 to 19, default dashboardAgentNice (see core/process/priority.ts). */
export function agentNiceOption(text: string | undefined): number {
	if (text === undefined) {
		return dashboardAgentNice;
	}

	const value = Number(text);
	if (!/^\d+$/.test(text.trim()) || value > 19) {
		throw new InputError(`--agent-nice: ${JSON.stringify(text)} is not a niceness from 0 to 19`, {}, `pass a whole number from 0 (agents keep their priority) to 19; the default is ${dashboardAgentNice}`);
	}

	return value;
}
