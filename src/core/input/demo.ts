// The built-in demo: a HERMES_HOME in the temp folder with a sample routing config and profiles,
// and a batch for the bundled fake agent (which accepts `hermes chat`'s flags, so the real launcher
// runs). Directives for the fake agent ride in each task's context, out of the titles. One home per
// user, rewritten at each start, with only the newest runs kept: demos do not pile up in /tmp.
import {mkdirSync} from 'node:fs';
import {tmpdir, userInfo} from 'node:os';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import {InputError} from '../errors.js';
import {makeFolder, runsDir} from '../hermes/home.js';
import {pruneRunFolders} from '../run-folder/folder.js';
import type {TaskSpec} from '../types.js';
import {distrustOf} from '../run-folder/trust.js';

const sampleConfig = `# Sample Hermes config written by \`hermes-delegate demo\`.
model:
  default: anthropic/claude-sonnet-5
delegation:
  backend: model_map
  backends:
    model_map:
      options:
        - name: fast
          description: "Cheap and quick: lookups, summaries, simple edits."
          provider: openrouter
          model: google/gemini-3-flash-preview
        - name: deep
          description: "Slow and careful: hard debugging, design and reasoning work."
          provider: anthropic
          model: claude-opus-5
          reasoning_effort: high
        - name: research
          description: "Web research and long-form summaries with sources."
          provider: openrouter
          model: deepseek/deepseek-v4-pro
          reasoning_effort: medium
      default: fast
    profile_routes:
      profiles:
        - name: coder
          description: Writes and refactors code; runs tests.
        - name: researcher
          description: Web research and long-form summaries.
      default: coder
`;

// hermes-delegate's own settings, beside (never inside) Hermes's config.
const sampleSettings = `# hermes-delegate settings written by \`hermes-delegate demo\`.
concurrency: 3
grace: 5
characteristics:
  coding: deep
  reasoning: deep
  research: research
  quick: fast
`;

export type DemoHome = {hermesHome: string; configPath: string};

/** Run folders the demo home keeps, the one about to start included. */
export const demoRunsKept = 10;

/** Puts the demo's home elsewhere (tests give each their own; anyone may keep demos apart). */
export const demoHomeEnv = 'HERMES_DELEGATE_DEMO_HOME';

/**
 * The demo's HERMES_HOME: $HERMES_DELEGATE_DEMO_HOME when set, else `hermes-delegate-demo-<uid>` in
 * the temp folder. One per user: the temp folder is shared, and another user's demo home is
 * neither ours to prune nor theirs to attach to (ls, attach, gc and wait look here too).
 */
export function demoHomePath(env: NodeJS.ProcessEnv, tmp: string = tmpdir()): string {
	const chosen = chosenDemoHome(env);
	return chosen === undefined ? path.join(tmp, `hermes-delegate-demo-${userTag()}`) : path.resolve(chosen);
}

function chosenDemoHome(env: NodeJS.ProcessEnv): string | undefined {
	const chosen = env[demoHomeEnv];
	return chosen === undefined || chosen.trim() === '' ? undefined : chosen;
}

function userTag(): string {
	const uid = process.getuid?.();
	return uid === undefined ? userInfo().username.replaceAll(/[^\w.-]/g, '_') : String(uid);
}

/**
 * (Re)writes the demo home and prunes its old runs. Every file is written atomically: two demos
 * may start at once, and neither may read the other's half-written config.
 */
export function createDemoHome(env: NodeJS.ProcessEnv, options: {tmp?: string} = {}): DemoHome {
	const hermesHome = demoHomePath(env, options.tmp);
	const fix = chosenDemoHome(env) !== undefined ? `point ${demoHomeEnv} at a folder of yours, or unset it` : 'point TMPDIR at a writable temporary folder';
	makeFolder(hermesHome, fix);
	assertOwnFolder(hermesHome, fix);
	// Each profile names its model as `hermes profile create` writes it, so profile panes show it.
	for (const [profile, model] of [['coder', 'anthropic/claude-sonnet-4.6'], ['researcher', 'deepseek/deepseek-v4-pro']] as const) {
		mkdirSync(path.join(hermesHome, 'profiles', profile), {recursive: true});
		writeFileAtomic.sync(path.join(hermesHome, 'profiles', profile, 'config.yaml'), `# demo profile\nmodel:\n  default: ${model}\n`);
	}

	const configPath = path.join(hermesHome, 'config.yaml');
	writeFileAtomic.sync(configPath, sampleConfig);
	writeFileAtomic.sync(path.join(hermesHome, 'delegate.yaml'), sampleSettings);
	pruneRunFolders(runsDir(hermesHome), demoRunsKept - 1);
	return {hermesHome, configPath};
}

// The temp folder is shared: a home someone else made (or a symlink planted there) could feed
// the demo another config, or point the pruning at folders that are not the demo's.
function assertOwnFolder(dir: string, fix: string): void {
	const why = distrustOf(dir);
	if (why !== undefined) {
		throw new InputError(`the demo home ${dir} is not a folder of yours alone: ${why}`, {}, `remove it, or ${fix}`);
	}
}

/**
 * The demo batch: ordinary work, one failure, one runaway that ignores SIGTERM, one refusal.
 * Without `runawayTimeoutSeconds` (the dashboard's demo) the runaway runs until the operator
 * cancels it or quits: a timeout of its own stopped it before a newcomer reading `?` got to it.
 * Headless, `run --demo` passes one, or it would never end.
 */
export function demoTasks(options: {runawayTimeoutSeconds?: number | undefined} = {}): TaskSpec[] {
	return [
		{name: 'capital-lookup', goal: 'What is the capital of France? Quick lookup.', characteristic: 'quick', context: '[fake:duration=4]'},
		{name: 'fix-flaky-test', goal: 'Debug and fix the flaky retry test in the payment service', option: 'deep', context: '[fake:duration=12]'},
		{name: 'survey-vector-dbs', goal: 'Research and compare three vector databases for our scale', context: '[fake:duration=9]'},
		// One step: its tool lines must not push the hostile lines out of the pane's tail.
		{name: 'changelog-summary', goal: 'Summarize this week\'s changelog for the team', context: '[fake:duration=6] [fake:steps=1] [fake:escapes]'},
		{name: 'flaky-provider', goal: 'Translate the onboarding guide to German', context: '[fake:duration=5] [fake:fail]'},
		{name: 'runaway-crawler', goal: 'Crawl the docs site and index every page', option: 'research', ...(options.runawayTimeoutSeconds === undefined ? {} : {timeout: options.runawayTimeoutSeconds}), context: '[fake:forever] [fake:ignore-term] [fake:grandchild]'},
		{name: 'explain-design', goal: 'Explain the tradeoffs of event sourcing for our ledger', context: '[fake:duration=10]'},
		{name: 'turbo-route', goal: 'Write release notes', option: 'turbo', context: '[fake:duration=3]'},
	];
}
