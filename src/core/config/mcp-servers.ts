// An MCP server's entry in Hermes's config.yaml (`mcp_servers.<name>`), added as text splices so
// that the rest of the file stays byte-for-byte as it was (core/yaml/splice.ts), comments included.
// An entry of that name already there is left alone: setting up twice gives one entry, and an
// entry the operator adjusted by hand keeps what they wrote.
import {InputError} from '../errors.js';
import {parseLocated} from '../text/yaml-locate.js';
import {applySplices, setValue, SpliceError} from '../yaml/splice.js';

/** env: what the server's process is given beyond Hermes's safe baseline. */
export type McpServerEntry = {name: string; command: string; args: string[]; env: Record<string, string>; timeout: number};

export type EntryEdit = {after: string; added: boolean};

export function withMcpServer(text: string, file: string, entry: McpServerEntry): EntryEdit {
	const parse = (source: string) => {
		const {document} = parseLocated(source, {hermes: true});
		if (document.errors.length > 0) {
			throw new InputError(`cannot be read as YAML: ${document.errors[0]!.message.split('\n')[0]}`, {file}, 'fix the YAML (Hermes would not read it either), then run setup again');
		}

		return document;
	};

	const before = parse(text);
	const servers: unknown = before.get('mcp_servers');
	if (servers !== undefined && servers !== null && (typeof servers !== 'object' || Array.isArray(servers) || !('get' in (servers as object)))) {
		throw new InputError('mcp_servers is not a map of server names', {file, path: 'mcp_servers'}, 'make mcp_servers a map (name: {command: …}) or remove it, then run setup again');
	}

	if (before.hasIn(['mcp_servers', entry.name])) return {after: text, added: false};
	const path = ['mcp_servers', entry.name];
	let after = text;
	try {
		const steps: Array<[string[], string | number | string[]]> = [[['command'], entry.command], [['args'], entry.args], ...Object.entries(entry.env).map(([key, value]): [string[], string] => [['env', key], value]), [['timeout'], entry.timeout]];
		for (const [keys, value] of steps) {
			after = applySplices(after, setValue(after, parse(after), [...path, ...keys], value));
		}
	} catch (error) {
		if (!(error instanceof SpliceError)) throw error;
		throw new InputError(`cannot add mcp_servers.${entry.name} without rewriting the file: ${error.message}`, {file, path: 'mcp_servers'}, `add it by hand:\n${entryText(entry)}`);
	}

	// What was meant is what Hermes will read.
	const check = parse(after).toJS() as {mcp_servers?: Record<string, unknown>};
	const {name, ...expected} = entry;
	if (JSON.stringify(check.mcp_servers?.[name]) !== JSON.stringify(expected)) {
		throw new InputError(`adding mcp_servers.${entry.name} would not read back as written`, {file}, `add it by hand:\n${entryText(entry)}`);
	}

	return {after, added: true};
}

/** The entry as YAML lines, for the operator who adds it by hand. */
export function entryText(entry: McpServerEntry): string {
	const env = Object.entries(entry.env).map(([key, value]) => `      ${key}: ${JSON.stringify(value)}\n`).join('');
	return `mcp_servers:\n  ${entry.name}:\n    command: ${JSON.stringify(entry.command)}\n    args: ${JSON.stringify(entry.args)}\n${env ? `    env:\n${env}` : ''}    timeout: ${entry.timeout}\n`;
}
