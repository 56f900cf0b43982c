// Our readers of Hermes's output, run over every recorded run of the real Hermes
// (../shared/hermes-agent/recorded, outside this repository): the probe's help parser, the -Q and
// text-mode output parsers and the error extraction, through the same TaskOutput a task uses.
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {interpretHermesOutput, withoutSessionLine} from '../../src/core/hermes/output.js';
import {parseChatHelp} from '../../src/core/hermes/probe.js';
import {TaskOutput} from '../../src/core/output/task-output.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const recorded = path.resolve(repoRoot, '../shared/hermes-agent/recorded');
const versions = ['0.19.0', '0.20.0'] as const;
const present = versions.every(version => existsSync(path.join(recorded, version)));
if (!present) {
	console.warn(`test/contract/parsers: skipped, no recordings of the real Hermes at ${recorded}`);
}

type Recording = {
	version: string;
	case: string;
	argv?: string[];
	stdout?: string | null;
	stderr?: string | null;
	exit_code?: number | null;
	signal?: string | null;
	mock?: {answers?: Array<{reply?: string}>};
};

const load = (version: string): Recording[] => readdirSync(path.join(recorded, version))
	.filter(file => file.endsWith('.json'))
	.map(file => JSON.parse(readFileSync(path.join(recorded, version, file), 'utf8')) as Recording);

/** What a task ends up with: the bytes pushed through a TaskOutput, then read as their mode means. */
function parse(run: Recording) {
	const mode = run.argv?.includes('-Q') ? 'quiet' as const : 'text' as const;
	const output = new TaskOutput({display: false, stderrFilter: mode === 'text' ? undefined : withoutSessionLine});
	output.pushStdout(Buffer.from(run.stdout ?? '', 'utf8'));
	output.pushStderr(Buffer.from(run.stderr ?? '', 'utf8'));
	output.end();
	return {mode, outcome: interpretHermesOutput({mode, exitCode: run.exit_code ?? null, stdout: output.result(), stderr: output.errorText()})};
}

const usage = (_version: string, refused: string) => `hermes: error: ${refused}`;

/** Hermes's own message for every recorded run that did not exit 0; undefined where it printed none. */
const expectedErrors: Record<string, (version: string) => unknown> = {
	'conn-refused-quiet': () => 'API call failed after 3 retries: Connection error.',
	'conn-refused-quiet-retries1': () => 'API call failed after 1 retries: Connection error.',
	'fail500-quiet-default-retries': () => 'API call failed after 3 retries: HTTP 500: mock upstream failure (FAIL500)',
	'fail500-quiet-retries1': () => 'API call failed after 1 retries: HTTP 500: mock upstream failure (FAIL500)',
	'provider-openai-api-env': () => 'API call failed after 1 retries: HTTP 404: only /v1/chat/completions',
	'flag-format-stream-json': version => usage(version, 'unrecognized arguments: --format stream-json'),
	'flag-query-file': version => usage(version, 'unrecognized arguments: --query-file {QUERY_FILE}'),
	'flag-run-budget': version => usage(version, 'unrecognized arguments: --run-budget 10'),
	'flag-unknown': version => usage(version, 'unrecognized arguments: --bogus-flag'),
	'query-separate-dash-option': () => 'hermes chat: error: argument -q/--query: expected one argument',
	'reasoning-high': version => usage(version, 'unrecognized arguments: --reasoning high'),
	// argparse's one long line, listing every subcommand.
	'reasoning-high-top-level': () => expect.stringMatching(/^hermes: error: argument command: invalid choice: 'high' \(choose from 'chat', .*'prompt-size'\)$/),
	'flag-skills-missing': () => 'Error: Unknown skill(s): nosuch-skill',
	'profile-missing': () => "Error: Profile 'nosuchprofile' does not exist. Create it with: hermes profile create nosuchprofile",
	'unknown-provider-quiet': () => "Unknown provider 'nosuch'. Check 'hermes model' for available providers, or run\n'hermes doctor' to diagnose config issues.",
	// Interrupted: -Q prints only the session line, so there is no message (the caller describes the exit).
	'sigint-during-slow-reply': () => undefined,
	'sigterm-during-slow-reply': () => undefined,
	'sigterm-during-tool': () => undefined,
	'sigterm-hermes-only-during-tool': () => undefined,
	'sigterm-at-start': () => undefined,
	'sigkill-during-tool': () => undefined,
	// Interrupted during start-up or without -Q: a KeyboardInterrupt traceback; its last line, not the frames.
	'sigterm-at-1.5s': () => 'KeyboardInterrupt',
	'sigterm-during-slow-reply-text': () => 'KeyboardInterrupt',
	'sigterm-during-tool-text': () => 'KeyboardInterrupt',
};

/**
 * Successful -Q runs whose stdout is not only the reply: Hermes prints these lines on stdout even
 * with -Q, and the answer keeps them (only stream-json tells them apart).
 */
const stdoutBesideReply: Record<string, {before: string; after?: string}> = {
	'flag-toolsets-unknown': {before: 'Warning: Unknown toolsets: nosuchtoolset\n'},
	'flag-max-turns-1-tool': {before: '⚠️  Reached maximum iterations (1). Requesting summary...\n'},
	'flag-worktree-git': {before: '\u001B[32m✓ Worktree created:\u001B[0m {CWD}/.worktrees/hermes-{WORKTREE_ID}\n  Branch: hermes/hermes-{WORKTREE_ID}\n  Base:   HEAD (local — could not reach remote)\n', after: '\n\u001B[32m✓ Worktree cleaned up: {CWD}/.worktrees/hermes-{WORKTREE_ID}\u001B[0m'},
};

describe.skipIf(!present).each(versions)('the recorded runs of Hermes %s', version => {
	const runs = present ? load(version).filter(run => run.stdout !== undefined) : [];
	const ran = runs.filter(run => run.stdout !== null);
	const failures = ran.filter(run => run.exit_code !== 0);

	it('has the runs this test reads (not an empty folder)', () => {
		expect(ran.length).toBeGreaterThan(50);
		expect(failures.length).toBeGreaterThan(15);
	});

	it('every failure gives Hermes\'s own message as `error`, and no answer', () => {
		for (const run of failures) {
			const expected = expectedErrors[run.case];
			expect(expected, `${version}/${run.case} failed in the recording but has no expected error here`).toBeDefined();
			const {outcome} = parse(run);
			expect({case: run.case, error: outcome.error, answer: outcome.answer}).toEqual({case: run.case, error: expected!(version), answer: ''});
		}
	});

	it('every -Q success gives the mock\'s reply exactly as `answer` and no error', () => {
		const successes = ran.filter(run => run.exit_code === 0 && run.argv?.includes('-Q') && (run.mock?.answers ?? []).some(answer => answer.reply !== undefined));
		expect(successes.length).toBeGreaterThan(20);
		for (const run of successes) {
			const reply = run.mock!.answers!.findLast(answer => answer.reply !== undefined)!.reply!;
			const extra = stdoutBesideReply[run.case];
			const {outcome} = parse(run);
			expect({case: run.case, answer: outcome.answer, error: outcome.error}).toEqual({case: run.case, answer: `${extra?.before ?? ''}${reply}${extra?.after ?? ''}`, error: undefined});
		}
	});

	it('a -Q run that printed nothing but a refusal and exited 0 (-w outside git) is taken as its stdout: Hermes did not say it failed', () => {
		const run = ran.find(candidate => candidate.case === 'flag-worktree-nogit')!;
		expect(parse(run).outcome.answer).toBe('\u001B[31m✗ --worktree requires being inside a git repository.\u001B[0m\n  cd into your project repo first, then run hermes -w');
	});

	it('text mode: a success keeps the whole transcript (the reply is in it) and says the output is a transcript', () => {
		const transcripts = ran.filter(run => run.exit_code === 0 && !run.argv?.includes('-Q') && run.argv?.includes('chat') && run.argv.includes('-q'));
		expect(transcripts.map(run => run.case).sort()).toEqual(['chat-text-longreply', 'chat-text-success', 'chat-text-success-color', 'conn-refused-text-retries1', 'fail500-text-default-retries', 'fail500-text-retries1', 'toolcall-text', 'unknown-provider-text']);
		for (const run of transcripts) {
			const {outcome} = parse(run);
			expect(outcome.answer).toBe(run.stdout!.replace(/\r?\n$/, ''));
			expect(outcome.error).toBeUndefined();
			expect(outcome.notes.join(' ')).toMatch(/formatted transcript.*failed model call still exits 0/);
			const reply = run.mock?.answers?.findLast(answer => answer.reply !== undefined)?.reply;
			if (reply) expect(outcome.answer).toContain(reply.split('\n')[0]!);
		}
	});

	it('the session id is found exactly where stderr has one', () => {
		for (const run of ran) {
			const {outcome} = parse(run);
			expect({case: run.case, session: outcome.sessionId}).toEqual({case: run.case, session: run.stderr!.includes('session_id: ') ? '{SESSION_ID}' : null});
		}

		expect(ran.filter(run => run.stderr!.includes('session_id: ')).length).toBeGreaterThan(30);
	});

	it('the probe reads the recorded `chat --help` as this release\'s flags', () => {
		const help = runs.find(run => run.case === 'chat-help')!;
		expect(help.argv).toEqual(['hermes', 'chat', '--help']);
		const common = {quiet: true, streamJson: false, queryFile: false, runBudget: false, maxTurns: true, toolsets: true, skills: true, worktree: true, source: true, provider: true, cli: true};
		expect(parseChatHelp(help.stdout!)).toEqual({...common, reasoning: version === '0.20.0'});
	});
});
