// What every tool handler is given: the environment and flags `hermes-delegate mcp` started with,
// who the parent agent is (its MCP client name), and the server's log (MCP logging, never stdout).
import type {LoggingLevel} from '@modelcontextprotocol/server';
import type {Launched} from '../client/launch.js';
import type {HostSpec} from '../wire/launch.js';

/** `run`'s flags that apply to every batch the server starts, as commander gave them. */
export type McpBatchOptions = {
	config?: string | undefined;
	hermesBin?: string | undefined;
	concurrency?: string | undefined;
	grace?: string | undefined;
	timeout?: string | undefined;
	budgetUsd?: string | undefined;
	budgetTokens?: string | undefined;
	logLimit?: string | undefined;
	stuckTimeout?: string | undefined;
};

export type McpContext = {
	env: NodeJS.ProcessEnv;
	hermesHome: string;
	options: McpBatchOptions;
	/** The parent agent's name as its MCP client said in initialize (or its request envelope). */
	origin(): string | undefined;
	log(level: LoggingLevel, message: string): void;
	/** Per batch, the finished tasks batch_wait has returned in this session: `until: "any"` waits for one not among them. */
	reported: Map<string, Set<string>>;
	/** Starts a batch under a runner host, as `run --detach` does (warm-host.ts keeps one started ahead). */
	launch(spec: HostSpec): Promise<Launched>;
};
