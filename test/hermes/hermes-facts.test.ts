// Canaries: what hermes-delegate relies on in the real `hermes`, checked against each installed
// release (0.19.0 and 0.20.0, see FACTS.md in ../shared/hermes-agent). When one of these fails,
// Hermes changed under us: the launcher's assumptions need a look before anything else.
// Each `hermes chat` costs seconds of start-up, so every release gets six chat runs, all started
// at once in beforeAll, and the tests below only read what they did.
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {makeHermesTestHome, type HermesTestHome} from '../helpers/hermes-test-home.js';
import {startMockModelServer, type MockModelServer, type RecordedRequest} from '../helpers/mock-model-server.js';
import {killStartedHermes, realHermesReleases, runHermes, startHermes, type HermesRun} from '../helpers/real-hermes.js';

const startUpBudget = 300_000;
const sessionLine = /^\nsession_id: (\S+)\n$/;

let mock: MockModelServer;
beforeAll(async () => {
	mock = await startMockModelServer();
});
afterAll(async () => {
	killStartedHermes();
	await mock.close();
});

for (const release of realHermesReleases()) {
	const {version} = release;
	const hasReasoning = version !== '0.19.0';

	describe.skipIf(release.skip !== undefined)(`real hermes ${version}`, () => {
		const bin = release.bin ?? '';
		let home: HermesTestHome;
		let marker: string;
		let help: HermesRun;
		let success: HermesRun;
		let failedQuiet: HermesRun;
		let failedLoud: HermesRun;
		let openaiApi: HermesRun;
		let lmStudio: HermesRun;
		let terminated: HermesRun;
		/** Unique per release, so requests of the two releases' runs are told apart. */
		const prompt = (what: string) => `${what} (hermes ${version})`;
		const requestFor = (text: string): RecordedRequest[] => mock.requests.filter(request => request.lastUser === text);

		beforeAll(async () => {
			home = makeHermesTestHome({baseUrl: mock.baseUrl, model: 'm-root', profiles: {p1: {model: 'm-profile'}}, activeProfile: 'p1'});
			marker = path.join(home.dir, 'tool-ran');
			const quiet = ['-Q', '--source', 'tool'];
			const slow = startHermes(bin, ['chat', '-q', prompt('slow [mock:slow]'), ...quiet], home.env);
			const runs = Promise.all([
				runHermes(bin, ['chat', '--help'], home.env),
				// -p default while active_profile names p1; a tool call; --reasoning where it exists.
				runHermes(bin, ['-p', 'default', 'chat', '-q', prompt(`tool [mock:tool=echo tool-ran | tee ${marker}]`), ...quiet, ...(hasReasoning ? ['--reasoning', 'high'] : [])], home.env),
				runHermes(bin, ['chat', '-q', prompt('fail quietly [mock:error500]'), ...quiet], home.env),
				runHermes(bin, ['chat', '-q', prompt('fail loudly [mock:error500]'), '--source', 'tool'], home.env),
				runHermes(bin, ['chat', '-q', prompt('elsewhere [mock:text=From elsewhere.]'), ...quiet, '--provider', 'openai-api', '-m', 'gpt-mock'], {
					...home.env,
					OPENAI_BASE_URL: `${mock.origin}/elsewhere-${version}/v1`,
					OPENAI_API_KEY: `sk-test-${version}`,
				}),
				runHermes(bin, ['chat', '-q', prompt('lm studio [mock:text=From LM Studio.]'), ...quiet, '--provider', 'lmstudio', '-m', 'lm-mock'], {
					...home.env,
					LM_BASE_URL: `${mock.origin}/lmstudio-${version}/v1`,
					LM_API_KEY: `sk-lm-${version}`,
				}),
			]);
			await mock.waitForRequest(request => request.lastUser === prompt('slow [mock:slow]'), startUpBudget);
			slow.signal('SIGTERM');
			[help, success, failedQuiet, failedLoud, openaiApi, lmStudio] = await runs;
			terminated = await slow.done;
		}, startUpBudget);

		afterAll(() => home?.remove());

		it('chat --help lists -Q; --reasoning only from 0.20.0; neither --format nor --query-file', () => {
			expect(help.exitCode).toBe(0);
			expect(help.stdout).toMatch(/^\s+-Q, --quiet\b/m);
			expect(/--reasoning LEVEL/.test(help.stdout)).toBe(hasReasoning);
			expect(help.stdout).not.toContain('--format');
			expect(help.stdout).not.toContain('--query-file');
		});

		it.runIf(!hasReasoning)('refuses --reasoning as a usage error (exit 2), before any model request', async () => {
			const run = await runHermes(bin, ['chat', '-q', prompt('never sent'), '-Q', '--reasoning', 'high'], home.env);
			expect(run.exitCode).toBe(2);
			expect(run.stderr).toContain('unrecognized arguments: --reasoning high');
			expect(requestFor(prompt('never sent'))).toEqual([]);
		});

		it('-Q success: stdout is exactly the reply and a newline, stderr only the session line', () => {
			expect(success.exitCode).toBe(0);
			const answered = requestFor(prompt(`tool [mock:tool=echo tool-ran | tee ${marker}]`)).at(-1);
			expect(answered?.reply).toMatch(/^Tool said: /);
			expect(success.stdout).toBe(`${answered?.reply}\n`);
			expect(success.stderr).toMatch(sessionLine);
		});

		it('a tool call\'s shell command really runs, and its output goes back to the model', () => {
			expect(readFileSync(marker, 'utf8')).toBe('tool-ran\n');
			expect(success.stdout).toContain('tool-ran');
			const [first, second] = requestFor(prompt(`tool [mock:tool=echo tool-ran | tee ${marker}]`));
			expect(first?.toolCount).toBeGreaterThan(0);
			expect(second?.toolResult).toBe(true);
		});

		it('-p default runs in the root home although active_profile names a profile', () => {
			const [first] = requestFor(prompt(`tool [mock:tool=echo tool-ran | tee ${marker}]`));
			expect(first?.model).toBe('m-root');
			const sessionId = sessionLine.exec(success.stderr)?.[1] ?? 'no session line';
			expect(home.holdsSession(sessionId)).toBe(true);
			expect(home.holdsSession(sessionId, 'p1')).toBe(false);
			// And without -p, active_profile decides: the other runs used p1's model.
			expect(requestFor(prompt('fail quietly [mock:error500]'))[0]?.model).toBe('m-profile');
		});

		it(hasReasoning ? '--reasoning high is sent as reasoning_effort: high' : 'sends no reasoning_effort', () => {
			const [first] = requestFor(prompt(`tool [mock:tool=echo tool-ran | tee ${marker}]`));
			expect(first?.reasoning_effort).toBe(hasReasoning ? 'high' : null);
		});

		it('-Q and an HTTP 500: exit 1, Hermes\'s message on stdout, the session line on stderr', () => {
			expect(failedQuiet.exitCode).toBe(1);
			expect(failedQuiet.stdout).toMatch(/^API call failed after 1 retries: HTTP 500: mock internal server error\n$/);
			expect(failedQuiet.stderr).toMatch(sessionLine);
			// agent.api_max_retries: 1 in the test home: one request, no back-off.
			expect(requestFor(prompt('fail quietly [mock:error500]'))).toHaveLength(1);
		});

		it('without -Q an HTTP 500 exits 0 (which is why hermes-delegate passes -Q)', () => {
			expect(failedLoud.exitCode).toBe(0);
			expect(failedLoud.stdout).toContain('HTTP 500: mock internal server error');
		});

		it('--provider openai-api goes to OPENAI_BASE_URL with Authorization: Bearer OPENAI_API_KEY', () => {
			const [request] = mock.requests.filter(seen => seen.path.startsWith(`/elsewhere-${version}/`));
			expect(request).toMatchObject({model: 'gpt-mock', authorization: `Bearer sk-test-${version}`});
			if (hasReasoning) {
				// 0.20.0 speaks the Responses API to openai-api, even on a custom OPENAI_BASE_URL: a server
				// that has only /chat/completions (as this mock) answers 404 and the run fails.
				expect(request?.path).toBe(`/elsewhere-${version}/v1/responses`);
				expect(openaiApi.exitCode).toBe(1);
				expect(openaiApi.stdout).toContain('HTTP 404');
			} else {
				expect(request?.path).toBe(`/elsewhere-${version}/v1/chat/completions`);
				expect(openaiApi).toMatchObject({exitCode: 0, stdout: 'From elsewhere.\n'});
			}
		});

		it('--provider lmstudio speaks chat completions to LM_BASE_URL with Authorization: Bearer LM_API_KEY', () => {
			// The provider that keeps an arbitrary OpenAI-compatible endpoint on /chat/completions on both releases.
			const [request] = mock.requests.filter(seen => seen.path.startsWith(`/lmstudio-${version}/`));
			expect(request).toMatchObject({path: `/lmstudio-${version}/v1/chat/completions`, model: 'lm-mock', authorization: `Bearer sk-lm-${version}`});
			expect(lmStudio).toMatchObject({exitCode: 0, stdout: 'From LM Studio.\n'});
		});

		it('SIGTERM during a reply: Hermes stops as if interrupted (exit 130, or death by SIGINT)', () => {
			const interrupted = terminated.exitCode === 130 || terminated.signal === 'SIGINT';
			expect(interrupted, JSON.stringify(terminated)).toBe(true);
			// Nothing of the half-streamed reply reaches stdout in -Q mode.
			expect(terminated.stdout).not.toContain('Thinking slowly');
		});
	});
}
