import {describe, expect, it} from 'vitest';
import {parse} from 'yaml';
import {InputError} from '../../../src/core/errors.js';
import {withMcpServer, type McpServerEntry} from '../../../src/core/config/mcp-servers.js';

const entry: McpServerEntry = {name: 'delegate', command: '/opt/hd/bin/hermes-delegate', args: ['mcp'], env: {HERMES_HOME: '/home/me/.hermes'}, timeout: 660};
const file = '/home/me/.hermes/config.yaml';

// A home as Hermes writes and people edit it: comments, a model section, another MCP server in flow style.
const lived = `# Hermes config — edited by hand
model:
  default: anthropic/claude-opus-5   # the parent's model
  provider: openrouter

mcp_servers:
  # the filesystem server
  fs:
    command: npx
    args: ["-y", "@modelcontextprotocol/server-filesystem", "/srv"]
    timeout: 120

delegation:
  max_concurrent_children: 4
`;

describe('withMcpServer', () => {
	it('adds the entry under an existing mcp_servers, leaving every other byte where it was', () => {
		const {after, added} = withMcpServer(lived, file, entry);
		expect(added).toBe(true);
		const parsed = parse(after) as {mcp_servers: Record<string, unknown>};
		expect(parsed.mcp_servers['delegate']).toEqual({command: entry.command, args: ['mcp'], env: {HERMES_HOME: '/home/me/.hermes'}, timeout: 660});
		expect(parsed.mcp_servers['fs']).toEqual({command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv'], timeout: 120});
		// Only lines were added: the old text is the new one with those lines taken out.
		const removedAdded = after.split('\n').filter(line => !lived.split('\n').includes(line));
		expect(after.split('\n').filter(line => !removedAdded.includes(line)).join('\n')).toBe(lived);
	});

	it('a second run finds its entry and changes nothing: one entry', () => {
		const once = withMcpServer(lived, file, entry).after;
		const twice = withMcpServer(once, file, entry);
		expect(twice).toEqual({after: once, added: false});
		expect(once.match(/^ {2}delegate:/gm)).toHaveLength(1);
	});

	it('an entry of that name written by hand is left as it is', () => {
		const own = `${lived}`.replace('  fs:\n', '  delegate:\n    command: hermes-delegate\n    args: [mcp, --grace, "2"]\n  fs:\n');
		expect(withMcpServer(own, file, entry)).toEqual({after: own, added: false});
	});

	it('creates mcp_servers in a file without one, and the file itself when there is none', () => {
		const created = withMcpServer('model:\n  default: x\n', file, entry).after;
		expect(created.startsWith('model:\n  default: x\n')).toBe(true);
		expect((parse(created) as {mcp_servers: Record<string, unknown>}).mcp_servers['delegate']).toMatchObject({command: entry.command});
		expect((parse(withMcpServer('', file, entry).after) as {mcp_servers: Record<string, unknown>}).mcp_servers['delegate']).toMatchObject({args: ['mcp']});
	});

	it('mcp_servers that is no map, or a file that is no YAML, is refused with the fix and no text', () => {
		expect(() => withMcpServer('mcp_servers: [fs]\n', file, entry)).toThrow(InputError);
		expect(() => withMcpServer('mcp_servers: [fs]\n', file, entry)).toThrow(/mcp_servers is not a map/);
		expect(() => withMcpServer('model: [unclosed\n', file, entry)).toThrow(/cannot be read as YAML/);
	});
});
