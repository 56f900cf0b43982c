// --agent-nice of the dashboard's commands, checked in the foreground (bad input exits 2 before a
// runner host is started) and again by the host that applies it.
import {InputError} from '../core/errors.js';
import {dashboardAgentNice} from '../core/process/priority.js';

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
