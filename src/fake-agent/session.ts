// What one fake run is made of, whatever the output mode: its session, its tool calls, its tokens.
import {randomBytes} from 'node:crypto';
import type {ChatCommand} from './command-line.js';
import type {Directives} from './directives.js';
import {defaultFakeVersion, type FakeVersion} from './versions.js';

/** The model Hermes reports when no -m is given: the fake has no config.yaml to read one from. */
export const configuredDefaultModel = 'fake/configured-default';

export type ToolCall = {
	index: number;
	name: string;
	id: string;
	input: Record<string, unknown>;
	/** The tool's raw output (a JSON string for most of Hermes's tools). */
	output: string;
	isError: boolean;
	/** Hermes's one-line progress text for it (text mode), without the duration. */
	label: string;
	/** Text mode's line when the tool starts (`💻 preparing terminal…`), where Hermes prints one. */
	preparing?: string;
	/** A shell tool's exit status, shown as ` [exit N]` when not 0. */
	exitCode?: number;
};

export type Session = {
	id: string;
	startedAt: number;
	/** What system/init reports: -m, else the configured default, unless [fake:model-used] says otherwise. */
	model: string;
	command: ChatCommand;
	directives: Directives;
	query: string;
	toolCalls: ToolCall[];
	/** The release posed as: the text-mode layout differs between them. */
	release: FakeVersion['version'];
	/**
	 * The recorded-answers mode's tokens: what the model server's usage chunks said, summed, and how
	 * many calls reported one. Absent in the directive mode, whose counts tokensUsed makes up.
	 */
	usage?: {input: number; output: number; calls: number};
	/** --max-turns ran out and a summary was asked for: one more user message in the session. */
	summaryAsked?: boolean;
};

/** Hermes's session ids: start time plus six hex digits, e.g. 20261130_195246_7aca9c. */
function sessionId(now: Date): string {
	const pad = (value: number) => String(value).padStart(2, '0');
	const date = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;
	const time = `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
	return `${date}_${time}_${randomBytes(3).toString('hex')}`;
}

export function startSession(command: ChatCommand, query: string, directives: Directives, release = defaultFakeVersion.version): Session {
	const now = new Date();
	return {
		id: sessionId(now),
		startedAt: now.getTime(),
		model: directives.text('model-used') ?? command.model ?? configuredDefaultModel,
		command,
		directives,
		query,
		toolCalls: [],
		release,
	};
}

function shorten(text: string, length: number): string {
	return text.length > length ? `${text.slice(0, length - 3)}...` : text;
}

/** `[fake:tool-error]` fails the first tool call, `[fake:tool-error=N]` the Nth. */
function failingStep(directives: Directives): number | undefined {
	if (!directives.has('tool-error')) return undefined;
	return Math.max(1, Math.floor(directives.number('tool-error', 1))) - 1;
}

/** The index-th tool call of a run: a plausible cycle of Hermes's own tools, about the goal. */
export function toolCall(session: Session, index: number): ToolCall {
	const topic = shorten(session.directives.goal || 'the task', 40);
	const slug = topic.toLowerCase().replaceAll(/[^a-z0-9]+/g, '-').replaceAll(/^-|-$/g, '') || 'notes';
	const catalogue: Array<Omit<ToolCall, 'index' | 'id' | 'isError'>> = [
		{name: 'web_search', input: {query: topic}, output: pythonJson({results: 8, top: `https://example.org/${slug}`}), label: `🔍 search    ${topic}`},
		{name: 'web_extract', input: {urls: [`https://example.org/${slug}`]}, output: `# ${topic}\n\nA page about ${topic}.`, label: '📄 fetch     example.org'},
		{name: 'terminal', input: {command: 'grep -rn TODO src'}, output: pythonJson({output: 'src/index.ts:12: // TODO', exit_code: 0, error: null}), label: '💻 $         grep -rn TODO src'},
		{name: 'read_file', input: {path: 'src/index.ts'}, output: pythonJson({content: 'export {};\n', total_lines: 1}), label: '📖 read      src/index.ts'},
		{name: 'search_files', input: {pattern: 'TODO', path: '.'}, output: pythonJson({matches: 3}), label: '🔎 grep      TODO'},
		{name: 'todo', input: {todos: [{id: '1', content: `answer: ${topic}`, status: 'in_progress'}]}, output: pythonJson({todos: 1}), label: '📋 plan      1 task(s)'},
	];
	const entry = catalogue[index % catalogue.length]!;
	const isError = failingStep(session.directives) === index;
	return {
		...entry,
		index,
		id: `call_${randomBytes(4).toString('hex')}`,
		isError,
		output: isError ? pythonJson({success: false, error: `${entry.name} failed: permission denied`}) : entry.output,
		label: isError ? `${entry.label} [${entry.name} failed: permission denied]` : entry.label,
	};
}

export type Tokens = {input: number; output: number; total: number; cache_read: number; cache_write: number};

/** The model server's usage (recorded-answers mode), else `[fake:tokens=IN,OUT]`, else a plausible count from the query, the tool calls and the answer. */
export function tokensUsed(session: Session, answer: string): Tokens {
	if (session.usage) return {input: session.usage.input, output: session.usage.output, total: session.usage.input + session.usage.output, cache_read: 0, cache_write: 0};
	const asked = /^(\d+)\s*,\s*(\d+)$/.exec(session.directives.text('tokens') ?? '');
	const input = asked ? Number(asked[1]) : 1200 + Math.ceil(session.query.length / 4) + 350 * session.toolCalls.length;
	const output = asked ? Number(asked[2]) : Math.ceil(answer.length / 4) + 40 * session.toolCalls.length;
	return {input, output, total: input + output, cache_read: 0, cache_write: 0};
}

/** Hermes writes its JSON lines with Python's json.dumps: `", "` and `": "` between items, non-ASCII as is. */
export function pythonJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map((item) => pythonJson(item)).join(', ')}]`;
	if (value !== null && typeof value === 'object') {
		return `{${Object.entries(value)
			.filter(([, item]) => item !== undefined)
			.map(([key, item]) => `${JSON.stringify(key)}: ${pythonJson(item)}`)
			.join(', ')}}`;
	}

	return JSON.stringify(value);
}

/** The answer as a model streams it: a few deltas that join to exactly the text. */
export function textDeltas(answer: string, count = 4): string[] {
	const words = answer.split(/(?<=\s)(?=\S)/);
	const size = Math.max(1, Math.ceil(words.length / count));
	const deltas: string[] = [];
	for (let start = 0; start < words.length; start += size) deltas.push(words.slice(start, start + size).join(''));
	return deltas.filter((delta) => delta !== '');
}

export function formatDuration(ms: number): string {
	const seconds = Math.round(ms / 1000);
	if (seconds < 60) return `${seconds}s`;
	const minutes = Math.floor(seconds / 60);
	return minutes < 60 ? `${minutes}m ${seconds % 60}s` : `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}
