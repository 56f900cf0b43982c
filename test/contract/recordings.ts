// The recorded runs of the real Hermes (../shared/hermes-agent/recorded, see its README) and what a
// replay against the fake agent needs from them: the cases, a fresh scratch folder per case with
// every placeholder given a value, the answers the mock gave turned into the fake's script, and
// placeholders.json's normalisation applied, in its order, to the fake's output.
import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const recordedRoot = join(repoRoot, '..', 'shared', 'hermes-agent', 'recorded');
export const recordedVersions = ['0.19.0', '0.20.0'] as const;
export type RecordedVersion = (typeof recordedVersions)[number];

/** Why the recordings are not used, or undefined when they are there. */
export function recordingsMissing(): string | undefined {
	if (existsSync(join(recordedRoot, 'placeholders.json'))) return undefined;
	return `no recordings at ${recordedRoot} (the shared folder beside this repository): contract tests skipped`;
}

type Request = {path: string; port: string | null; model: string | null; auth: string | null; stream: boolean; user?: string; [field: string]: unknown};
type Answer = {reply?: string; tool_call?: string; command?: string; status?: number};
type When = {when: 'at' | 'post_seen' | 'proc_seen'; t?: number; needle?: string; sig: string; pid_only?: boolean};

export type RecordedCase = {
	version: RecordedVersion;
	case: string;
	argv: string[];
	env: Record<string, string>;
	cwd: string;
	config_yaml?: string;
	profiles?: Record<string, string>;
	active_profile?: string;
	mock?: {magic: string[]; answers: Answer[]};
	stdout: string | null;
	stderr: string | null;
	exit_code: number | null;
	signal: string | null;
	requests?: Request[];
	sessions?: Record<string, {stored_in: string}>;
	processes?: {signal: string; when: When; survivors_after_exit: Array<{comm: string; cmd: string}>};
	repeat_runs?: Array<{exit_code: number | null; signal: string | null}>;
	replay?: {stdout: string; stderr: string; signal?: string; exit?: string};
	generated?: Record<string, string>;
};

export function loadCases(version: RecordedVersion): RecordedCase[] {
	const folder = join(recordedRoot, version);
	return readdirSync(folder)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => JSON.parse(readFileSync(join(folder, file), 'utf8')) as RecordedCase);
}

/**
 * A free 5-digit port on 127.0.0.1 (text-mode panels pad around the digits), closed again, and
 * none of `taken`: the kernel may hand the same port out twice in a row.
 */
async function freePort(taken: readonly string[] = []): Promise<string> {
	for (;;) {
		const port = await new Promise<number>((resolve, reject) => {
			const server = createServer();
			server.once('error', reject);
			server.listen(0, '127.0.0.1', () => {
				const address = server.address();
				server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
			});
		});
		if (port >= 10_000 && !taken.includes(String(port))) return String(port);
	}
}

export type Replay = {
	values: Record<string, string>;
	scratch: string;
	scriptFile: string;
	eventsFile: string;
	cleanup(): void;
};

export const fill = (text: string, values: Record<string, string>) => text.replaceAll(/\{([A-Z_0-9]+)\}/g, (whole, name: string) => values[name] ?? whole);

/** The folders, files and ports of one replay, made as the recorder made them (README "Replaying"). */
export async function prepareReplay(recorded: RecordedCase, fakeAgentPath: string): Promise<Replay> {
	const scratch = mkdtempSync(join(tmpdir(), `replay-${recorded.case}-`));
	const values: Record<string, string> = {
		SCRATCH: scratch,
		HOME: join(scratch, 'home'),
		USERHOME: join(scratch, 'userhome'),
		NOSKILLS: join(scratch, 'noskills'),
		TMPDIR: join(scratch, 'tmp'),
		CWD: join(scratch, 'cwd'),
		QUERY_FILE: join(scratch, 'query.txt'),
		HERMES_BIN: fakeAgentPath,
		VENV: dirname(fakeAgentPath),
		PATH: '/usr/local/bin:/usr/bin:/bin',
	};
	// Distinct, or {PORT_B} would read back as {PORT_A} after normalise.
	for (const name of ['PORT_A', 'PORT_B', 'PORT_DEAD']) values[name] = await freePort(Object.values(values));
	for (const folder of ['HOME', 'USERHOME', 'NOSKILLS', 'TMPDIR', 'CWD']) mkdirSync(values[folder]!, {recursive: true});
	writeFileSync(values['QUERY_FILE']!, 'Say hello.\n');
	if (recorded.config_yaml !== undefined) writeFileSync(join(values['HOME']!, 'config.yaml'), fill(recorded.config_yaml, values));
	for (const [name, text] of Object.entries(recorded.profiles ?? {})) {
		mkdirSync(join(values['HOME']!, 'profiles', name), {recursive: true});
		writeFileSync(join(values['HOME']!, 'profiles', name, 'config.yaml'), fill(text, values));
	}

	if (recorded.active_profile !== undefined) writeFileSync(join(values['HOME']!, 'active_profile'), recorded.active_profile);
	if (recorded.cwd.includes('git repository')) {
		const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=replay', '-c', 'user.email=replay@example.invalid', ...args], {cwd: values['CWD'], stdio: 'ignore'});
		git('init', '-q', '-b', 'main');
		writeFileSync(join(values['CWD']!, 'README.md'), 'replay\n');
		git('add', 'README.md');
		git('commit', '-q', '-m', 'one commit');
	}

	const eventsFile = join(scratch, 'events.jsonl');
	const scriptFile = join(scratch, 'script.json');
	writeFileSync(scriptFile, JSON.stringify(scriptFor(recorded, eventsFile)));
	return {values, scratch, scriptFile, eventsFile, cleanup: () => rmSync(scratch, {recursive: true, force: true})};
}

// What mock_server.py's error bodies say (its README section "Its answers").
const errorMessages: Record<number, string> = {500: 'mock upstream failure (FAIL500)', 404: 'only /v1/chat/completions'};

/**
 * The mock's answers as the fake's script. The mock's reply names the model and port it received,
 * so the reply becomes a template the fake fills with what it resolved: a fake that picks the wrong
 * model or endpoint prints the wrong reply. SLOW<n> made the mock wait n seconds before replying.
 * Answers to requests the fake does not model (the LM Studio `/api/show` probe) are left out, and a
 * model endpoint on {PORT_DEAD} is a connection nobody accepts.
 */
export function scriptFor(recorded: RecordedCase, eventsFile: string): Record<string, unknown> {
	const slow = recorded.mock?.magic.map((word) => /^SLOW(\d+)$/.exec(word)).find(Boolean);
	const requests = recorded.requests ?? [];
	const answers = (recorded.mock?.answers ?? [])
		.map((answer, index) => ({answer, request: requests[index]}))
		.filter(({request}) => request?.path !== '/api/show')
		.map(({answer, request}) => {
			if (answer.reply !== undefined) return {reply: answer.reply.replace(/model=\S+ port=\{PORT_[A-Z]+\}/, 'model={model} port={port}'), ...(slow ? {delay_s: Number(slow[1])} : {}), ...mockUsage(request)};
			if (answer.tool_call !== undefined) return {tool_call: answer.tool_call, command: answer.command};
			return {status: answer.status, message: errorMessages[answer.status!] ?? 'error'};
		});
	const refused = recorded.config_yaml?.includes('{PORT_DEAD}') === true;
	// Held in start-up until the signal comes, for a signal the recorder sent there (`at`, after ~1 s).
	const when = recorded.processes?.when;
	const initS = when?.when === 'at' && (when.t ?? 0) > 0.5 ? 60 : 0;
	return {answers: refused ? [{connection: 'refused'}] : answers, init_s: initS, events: eventsFile};
}

/**
 * The usage mock_server.py sends with a reply: 100 prompt tokens plus one per message, 7 completion
 * tokens; a streamed reply carries it only when the request asked (stream_options.include_usage).
 */
function mockUsage(request: Request | undefined): {usage?: {prompt_tokens: number; completion_tokens: number}} {
	if (request === undefined || typeof request['messages'] !== 'number') return {};
	const asked = request.stream !== true || (request['stream_options'] as {include_usage?: boolean} | null)?.include_usage === true;
	return asked ? {usage: {prompt_tokens: 100 + request['messages'], completion_tokens: 7}} : {};
}

type Step = {step: number; kind?: string; pattern?: string; replacement?: string; flags?: string};
const steps = () => (JSON.parse(readFileSync(join(recordedRoot, 'placeholders.json'), 'utf8')) as {steps: Step[]}).steps;

/** placeholders.json's steps, in order, filled with this replay's paths, ports and session ids. */
export function normalise(stdout: string, stderr: string, values: Record<string, string>): {stdout: string; stderr: string} {
	let out = [stderr, stdout];
	for (const step of steps()) {
		if (step.step === 1) {
			const literals = ['HOME', 'USERHOME', 'NOSKILLS', 'TMPDIR', 'CWD', 'QUERY_FILE', 'HERMES_BIN', 'VENV', 'SCRATCH'].filter((name) => values[name]).sort((a, b) => values[b]!.length - values[a]!.length);
			out = out.map((text) => literals.reduce((result, name) => result.replaceAll(values[name]!, `{${name}}`), text));
		} else if (step.step === 2) {
			for (const name of ['PORT_A', 'PORT_B', 'PORT_DEAD']) out = out.map((text) => text.replaceAll(new RegExp(`(?<=[:=])${values[name]}\\b`, 'g'), `{${name}}`));
		} else if (step.step === 3) {
			const ids: string[] = [];
			const pattern = new RegExp(step.pattern!, 'g');
			// Numbered by first appearance, stderr scanned first.
			out = out.map((text) =>
				text.replaceAll(pattern, (id) => {
					if (!ids.includes(id)) ids.push(id);
					const number = ids.indexOf(id) + 1;
					return number === 1 ? '{SESSION_ID}' : `{SESSION_ID_${number}}`;
				}),
			);
		} else {
			const pattern = new RegExp(step.pattern!, `g${step.flags ?? ''}`);
			out = out.map((text) => text.replaceAll(pattern, step.replacement!));
		}
	}

	return {stderr: out[0]!, stdout: out[1]!};
}

/** `{PROMPT}` as `generated` says: the sentence repeated and cut to N bytes. */
export function generatedPrompt(recorded: RecordedCase): string | undefined {
	const how = recorded.generated?.['{PROMPT}'];
	if (how === undefined) return undefined;
	const bytes = Number(/^(\d+) bytes/.exec(how)?.[1]);
	return 'The quick brown fox jumps over the lazy dog. '.repeat(Math.ceil(bytes / 45)).slice(0, bytes);
}
