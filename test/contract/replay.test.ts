// The fake agent held against the real Hermes: every recorded case of 0.19.0 and 0.20.0 whose
// `replay` allows it is run again against the fake posing as that release, with the same argv,
// environment, home and working folder, the fake told the answers the mock gave
// (FAKE_HERMES_SCRIPT, see src/fake-agent/script.ts), signals sent in the same phase. Compared,
// after placeholders.json's normalisation: stdout, stderr, exit status or signal, whether a
// session row would exist and in which home, the model/port/key of each chat request, the
// processes left alive, and the state.db row of each session it printed (the recorded `sessions`). Cases the fake does not model are listed below with the reason.
import {spawn} from 'node:child_process';
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {fakeAgentPath} from '../helpers/processes.js';
import {waitFor} from '../helpers/wait-for.js';
import {fill, generatedPrompt, loadCases, normalise, prepareReplay, recordedVersions, recordingsMissing, type RecordedCase} from './recordings.js';
import {sessionMessages, sessionRows, type StoredMessage} from './session-rows.js';

/** Every case the replay leaves out, and why. Each recorded case is either here or replayed. */
const notModelled: Record<string, string> = {
	help: 'checked by test/contract/help.test.ts',
	'chat-help': 'checked by test/contract/help.test.ts',
	version: "the Install directory line names the fake's own folder, not a Python venv (the other lines are checked by test/core/fake-agent.test.ts)",
	'prompt-200k-e2big': 'exec fails (E2BIG) before any agent runs: it pins the operating system, not Hermes',
	'prompt-max-arg-plus-one': 'exec fails (E2BIG) before any agent runs: it pins the operating system, not Hermes',
	'startup-cost': 'timings only, in a layout of its own (a benchmark, not behaviour)',
};

type Outcome = {stdout: string; stderr: string; exitCode: number | null; signal: string | null; events: Array<Record<string, unknown>>; survivors: string[]; sessions: Record<string, Record<string, unknown>>; messages: Record<string, StoredMessage[]>};

function readEvents(file: string): Array<Record<string, unknown>> {
	if (!existsSync(file)) return [];
	return readFileSync(file, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Live processes in the session the tool's shell leads (Hermes gives it one of its own). */
function sessionMembers(leader: number): Array<{pid: number; comm: string}> {
	const found: Array<{pid: number; comm: string}> = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (fields[0] !== 'Z' && Number(fields[3]) === leader) found.push({pid: Number(entry), comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))});
		} catch {
			// It ended while we looked.
		}
	}

	return found;
}

async function replay(recorded: RecordedCase): Promise<Outcome> {
	const prepared = await prepareReplay(recorded, fakeAgentPath);
	const values: Record<string, string> = {...prepared.values, PROMPT: generatedPrompt(recorded) ?? '{PROMPT}'};
	try {
		const env = Object.fromEntries(Object.entries(recorded.env).map(([key, value]) => [key, fill(value, values)]));
		const argv = recorded.argv.slice(1).map((arg) => (arg === '{PROMPT}' ? values['PROMPT']! : fill(arg, values)));
		const child = spawn(process.execPath, [fakeAgentPath, ...argv], {
			cwd: values['CWD'],
			env: {...env, FAKE_HERMES_VERSION: recorded.version, FAKE_HERMES_SCRIPT: prepared.scriptFile},
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
		const exited = new Promise<{code: number | null; signal: string | null}>((resolve) => child.on('close', (code, signal) => resolve({code, signal})));
		const events = () => readEvents(prepared.eventsFile);
		const when = recorded.processes?.when;
		if (when) {
			await new Promise((resolve) => child.once('spawn', resolve));
			const reached = (phase: string) => waitFor(() => events().some((event) => event['phase'] === phase), {message: `the fake reaching its ${phase} phase`});
			// `at` 0.3 s was before Python set its handlers: right after exec, before Node runs our code.
			if (when.when === 'at' && (when.t ?? 0) > 0.5) await reached('init');
			if (when.when === 'post_seen') await reached('request');
			if (when.when === 'proc_seen') {
				await reached('tool');
				const leader = events().find((event) => event['phase'] === 'tool')!['pid'] as number;
				await waitFor(() => sessionMembers(leader).some((member) => member.comm === 'sleep'), {message: "the tool's sleep"});
			}

			process.kill(when.pid_only ? child.pid! : -child.pid!, when.sig as NodeJS.Signals);
		}

		const {code, signal} = await exited;
		const tool = events().find((event) => event['phase'] === 'tool');
		const survivors = tool ? sessionMembers(tool['pid'] as number) : [];
		for (const survivor of survivors) process.kill(survivor.pid, 'SIGKILL');
		return {...normalise(stdout, stderr, values), exitCode: code, signal, events: events().map((event) => normaliseEvent(event, values)), survivors: survivors.map((survivor) => survivor.comm).sort(), sessions: sessionRows(`${stderr}${stdout}`, values), messages: sessionMessages(`${stderr}${stdout}`, values)};
	} finally {
		prepared.cleanup();
	}
}

function normaliseEvent(event: Record<string, unknown>, values: Record<string, string>): Record<string, unknown> {
	const port = Object.entries(values).find(([name, value]) => name.startsWith('PORT_') && value === event['port'])?.[0];
	const home = typeof event['home'] === 'string' ? event['home'].replace(values['HOME']!, '{HOME}') : undefined;
	return {...event, ...(port ? {port: `{${port}}`} : {}), ...(home ? {home} : {})};
}

const tracebackStart = 'Traceback (most recent call last):';

/** README "Compare": anything before the traceback equal; it starts and ends as Python's does. */
function expectTracebackShape(actual: string, recorded: string): void {
	const cut = (text: string) => (text.includes(tracebackStart) ? text.slice(0, text.indexOf(tracebackStart)) : text);
	expect(cut(actual)).toBe(cut(recorded));
	const lines = actual.slice(cut(actual).length).trimEnd().split('\n');
	expect(lines[0]).toBe(tracebackStart);
	expect(lines.at(-1)).toBe('KeyboardInterrupt');
}

// sigterm-during-tool-text: the tool's `[exit 130]` line was printed in most runs, not all.
const racyToolLine = /^ {2}┊ 💻 \$ .* \{TOOL_DURATION\} \[exit 130\]\r\n/m;

/**
 * The fake's messages rows against what Hermes's were: as many as its recorded
 * message_count; the conversation its last request carried (less the system prompt), then the
 * model's reply to it where one was stored; each call asked for (finish_reason tool_calls) before
 * its tool's row, which names it by tool_call_id; an answer stored with finish_reason stop.
 */
function compareMessages(actual: Outcome, recorded: RecordedCase, requests: ReadonlyArray<Record<string, unknown>>): void {
	const sessions = Object.entries(recorded.sessions ?? {});
	const roles = requests.at(-1)?.['roles'];
	if (sessions.length !== 1 || !Array.isArray(roles)) return; // several sessions, or the Responses API: the requests do not say whose roles
	const [key, row] = sessions[0]!;
	const stored = actual.messages[key] ?? [];
	const count = (row as Record<string, unknown>)['message_count'] as number;
	expect(stored).toHaveLength(count);
	const conversation = (roles as string[]).filter(role => role !== 'system');
	// The Responses API's requests carry no roles (provider-openai-api-env): only the count is known there.
	if (conversation.length > 0) expect(stored.map(message => message.role)).toEqual(count > conversation.length ? [...conversation, 'assistant'] : conversation);
	const asked = new Set<string>();
	for (const message of stored) {
		if (message.role === 'assistant' && message.tool_call_ids.length > 0) {
			expect(message.finish_reason).toBe('tool_calls');
			for (const id of message.tool_call_ids) asked.add(id);
		}

		if (message.role === 'tool') {
			expect(asked.has(message.tool_call_id!)).toBe(true);
			expect(message.tool_name).toBeTruthy();
		}
	}

	const last = stored.at(-1);
	if (recorded.exit_code === 0 && last?.role === 'assistant' && last.tool_call_ids.length === 0) expect(last.finish_reason).toBe('stop');
}

function compare(actual: Outcome, recorded: RecordedCase): void {
	const how = recorded.replay!;
	if (how.exit === undefined) {
		expect({exit: actual.exitCode, signal: actual.signal}).toEqual({exit: recorded.exit_code, signal: recorded.signal});
	} else {
		const seen = (recorded.repeat_runs ?? []).map((run) => `${run.exit_code}/${run.signal}`);
		expect(seen).toContain(`${actual.exitCode}/${actual.signal}`);
	}

	if (how.stdout.startsWith('racy')) expect(actual.stdout.replace(racyToolLine, '')).toBe(recorded.stdout!.replace(racyToolLine, ''));
	else expect(actual.stdout).toBe(recorded.stdout);
	if (how.stderr.startsWith('traceback-shape')) expectTracebackShape(actual.stderr, recorded.stderr!);
	else expect(actual.stderr).toBe(recorded.stderr);

	// A session row exists for each session id Hermes printed, in the home it ran in.
	const printed = `${actual.stderr}${actual.stdout}`.includes('{SESSION_ID}');
	const sessions = Object.values(recorded.sessions ?? {});
	expect(printed).toBe(sessions.length > 0);
	const requests = actual.events.filter((event) => event['phase'] === 'request');
	if (sessions.length > 0) expect(requests[0]?.['home']).toBe(sessions[0]!.stored_in);

	// What reached the mock's chat endpoint (not LM Studio's /api/show probe, not the text-mode title
	// request, which the fake does not make); a refused connection reached nothing.
	// README "Compare" lists the fields hermes-delegate depends on; `roles` and `reasoning` (the
	// Responses API's) follow from those here, so they are not modelled apart.
	const reachedMock = (recorded.requests ?? []).filter((request) => request.path !== '/api/show' && !request.user?.startsWith('User: '));
	const fields = ['path', 'port', 'model', 'auth', 'stream', 'messages', 'has_tool_result', 'reasoning_effort', 'think'] as const;
	const pick = (request: Record<string, unknown>) => Object.fromEntries(fields.map((field) => [field, request[field] ?? null]));
	if (!recorded.config_yaml?.includes('{PORT_DEAD}')) expect(requests.map(pick)).toEqual(reachedMock.map((request) => pick(request)));

	// The fake's state.db rows for the sessions it printed, as the recorder read Hermes's.
	expect(actual.sessions).toEqual(recorded.sessions ?? {});
	compareMessages(actual, recorded, reachedMock);

	const survivors = (recorded.processes?.survivors_after_exit ?? []).map((process) => process.comm).sort();
	expect(actual.survivors).toEqual(survivors);
}

const missing = recordingsMissing();
// Without the recordings (a checkout without ../shared) the whole file is one skip that says why.
describe.skipIf(missing !== undefined)(missing ?? 'the fake agent replays the recorded runs of the real Hermes', () => {
	if (missing !== undefined) it('replays every recorded case', () => {});
	for (const version of missing === undefined ? recordedVersions : []) {
		describe(`as ${version}`, () => {
			for (const recorded of loadCases(version)) {
				const reason = notModelled[recorded.case];
				if (reason !== undefined) {
					it.skip(`${recorded.case}: not modelled: ${reason}`, () => {});
					continue;
				}

				it(recorded.case, async () => {
					compare(await replay(recorded), recorded);
				});
			}
		});
	}
});
