// `hermes-delegate mcp`: the MCP server over stdio (src/mcp/server.ts) with `run`'s batch flags,
// which apply to every batch it starts. The flags are checked here, before the server answers
// anything: a bad one is exit 2 with the message on stderr (stdout belongs to the protocol).
import {resolveHermesHome} from '../core/hermes/home.js';
import {parseLogLimit} from '../core/config/settings.js';
import {InputError} from '../core/errors.js';
import {parseNumber, type McpOptions} from './flags.js';
import type {CommandIO} from './io.js';

export async function mcpCommand(options: McpOptions, io: Pick<CommandIO, 'env'>, version: string): Promise<number> {
	if (options.concurrency !== undefined) parseNumber(options.concurrency, '--concurrency', {integer: true, min: 1});
	if (options.grace !== undefined) parseNumber(options.grace, '--grace', {min: 0});
	if (options.timeout !== undefined) parseNumber(options.timeout, '--timeout', {min: 0, exclusiveMin: true});
	if (options.budgetUsd !== undefined) parseNumber(options.budgetUsd, '--budget-usd', {min: 0, exclusiveMin: true});
	if (options.budgetTokens !== undefined) parseNumber(options.budgetTokens, '--budget-tokens', {integer: true, min: 1});
	if (options.stuckTimeout !== undefined) parseNumber(options.stuckTimeout, '--stuck-timeout', {min: 0, exclusiveMin: true});
	if (options.logLimit !== undefined) {
		const limit = parseLogLimit(options.logLimit);
		if (typeof limit !== 'number') throw new InputError(`--log-limit: ${limit.problem}`, {}, limit.fix);
	}

	const {serveMcp} = await import('../mcp/server.js');
	await serveMcp({env: io.env, hermesHome: resolveHermesHome(io.env), options, version});
	return 0;
}
