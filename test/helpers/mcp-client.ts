// The MCP server as a parent agent meets it: the SDK's own client spawning the built CLI
// (`hermes-delegate mcp`) over stdio, in a test home whose agents are the fake Hermes.
import {Client} from '@modelcontextprotocol/client';
import {StdioClientTransport} from '@modelcontextprotocol/client/stdio';
import {cliEnv, cliPath, type TestHome} from './run-cli.js';
import {fakeAgentPath} from './processes.js';

export type ToolAnswer = {isError: boolean; text: string; json(): any};

export type McpSession = {
	client: Client;
	/** The server's pid (the built CLI). */
	pid: number;
	call(name: string, args?: Record<string, unknown>, options?: {onprogress?: (progress: {progress: number; total?: number; message?: string}) => void}): Promise<ToolAnswer>;
	/** list_changed notifications received so far. */
	listChanges(): number;
	/** What the server wrote on stderr so far. */
	stderr(): string;
	close(): Promise<void>;
};

export function mcpArgs(extra: readonly string[] = []): string[] {
	return [cliPath, 'mcp', '--hermes-bin', fakeAgentPath, ...extra];
}

export async function connectMcp(home: TestHome, options: {name?: string; mode?: 'legacy' | 'auto'; args?: string[]; env?: NodeJS.ProcessEnv} = {}): Promise<McpSession> {
	let changes = 0;
	const client = new Client({name: options.name ?? 'test-parent', version: '1.0.0'}, {
		versionNegotiation: {mode: options.mode ?? 'legacy'},
		listChanged: {tools: {autoRefresh: false, debounceMs: 0, onChanged: () => {
			changes++;
		}}},
	});
	const transport = new StdioClientTransport({command: process.execPath, args: mcpArgs(options.args), env: cliEnv(home, options.env) as Record<string, string>, stderr: 'pipe'});
	let stderr = '';
	transport.stderr?.on('data', (chunk: Buffer) => {
		stderr += String(chunk);
	});
	await client.connect(transport);
	return {
		client,
		pid: transport.pid!,
		async call(name, args = {}, callOptions = {}) {
			const result = await client.callTool({name, arguments: args}, callOptions.onprogress ? {onprogress: callOptions.onprogress, timeout: 120_000} : {timeout: 120_000});
			const content = result.content as Array<{type: string; text?: string}>;
			const text = content.map(part => part.text ?? '').join('');
			return {isError: result.isError === true, text, json: () => JSON.parse(text)};
		},
		listChanges: () => changes,
		stderr: () => stderr,
		close: async () => client.close(),
	};
}
