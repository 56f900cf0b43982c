// hermes-delegate's own settings, in $HERMES_HOME/delegate.yaml: never mixed into Hermes's
// config.yaml, which belongs to Hermes. Command-line flags override what is read here.
import {existsSync} from 'node:fs';
import {decodeUtf8, inputLimits, readBoundedFile} from '../text/read-text.js';
import path from 'node:path';
import {z} from 'zod';
import {InputError, InputErrors, messageOf} from '../errors.js';
import type {DelegateSettings} from '../types.js';
import {formatBytes, hasUnit, parseSize} from '../text/sizes.js';
import {formatPath, lineOf, readYamlText, type LocatedDocument} from '../text/yaml-locate.js';
import {describeIssue, parseWorded} from '../text/zod-messages.js';

/** delegate.yaml; also the source of schemas/delegate.schema.json (src/commands/schemas.ts). */
export const settingsSchema = z.strictObject({
	concurrency: z.number().int().min(1).max(256).optional(),
	grace: z.number().min(0).max(3600).optional(),
	characteristics: z.record(z.string(), z.string().min(1)).optional(),
	characteristic_words: z.record(z.string(), z.array(z.string().min(1))).optional(),
	theme: z.string().min(1).optional(),
	keys: z.record(z.string(), z.array(z.string().min(1)).min(1)).optional(),
	/** false: the dashboard leaves the mouse to the terminal (as --no-mouse). */
	mouse: z.boolean().optional(),
	log_limit: z.union([z.number(), z.string()]).optional(),
	/** Where tasks run: `{nats: URL}` sends them to worker hosts (as `run --nats URL`); absent: here. */
	executor: z.strictObject({
		nats: z.string().min(1),
		creds: z.string().min(1).optional(),
		tls_ca: z.string().min(1).optional(),
		tls_cert: z.string().min(1).optional(),
		tls_key: z.string().min(1).optional(),
		worker_wait: z.number().positive().max(7 * 86_400).optional(),
	}).optional(),
	concurrency_per_provider: z.record(z.string().min(1), z.number().int().min(1).max(256)).optional(),
	budgets: z.record(z.string().min(1), z.strictObject({usd: z.number().positive().optional(), tokens: z.number().int().positive().optional()})
		.refine(budget => budget.usd !== undefined || budget.tokens !== undefined, {message: 'a route\'s budget names usd, tokens or both'})).optional(),
	budget_action: z.enum(['stop', 'cancel']).optional(),
	stuck_after: z.number().positive().max(86_400).optional(),
	/** The MCP server's own limits (`hermes-delegate mcp`): most tasks one `delegate` call may start. */
	mcp: z.strictObject({max_tasks: z.number().int().min(1).max(1000).optional()}).optional(),
});

/** Generous: a real agent's log is a few MB; twelve flooding tasks must not fill a disk in a minute. */
export const defaultLogLimitBytes = 256 * 1024 * 1024;
/** Below this a limit is a typo (`log_limit: 512` meant 512MB), not a wish. */
export const minimumLogLimitBytes = 64 * 1024;
const logLimitFix = 'the most bytes one task\'s log keeps: a size like 512MB, 2GiB or 1048576 (bytes), at least 64KiB; 0 = no limit';

/** A log limit from delegate.yaml or --log-limit, in bytes; an error message when it is none. */
export function parseLogLimit(raw: string | number): number | {problem: string; fix: string} {
	const bytes = parseSize(raw);
	if (bytes === undefined) {
		return {problem: `log limit must be a size like 512MB or a number of bytes, got ${JSON.stringify(raw)}`, fix: logLimitFix};
	}

	if (bytes > 0 && bytes < minimumLogLimitBytes) {
		return {problem: `log limit ${formatBytes(bytes)} is below the minimum of ${formatBytes(minimumLogLimitBytes)}`, fix: `${hasUnit(raw) ? 'give a larger size' : `add the unit, e.g. ${JSON.stringify(`${String(raw).trim()}MB`)}`}; ${logLimitFix}`};
	}

	return bytes;
}

/** Configurable (characteristic_words) because the words that matter differ between teams. */
export const defaultCharacteristicWords: Readonly<Record<string, readonly string[]>> = {
	coding: ['implement', 'fix', 'refactor', 'test', 'tests', 'code', 'bug', 'debug', 'function', 'compile', 'script', 'typescript', 'python', 'api'],
	research: ['research', 'find', 'compare', 'summarize', 'summarise', 'investigate', 'survey', 'sources', 'literature', 'search'],
	quick: ['what', 'who', 'when', 'capital', 'quick', 'define', 'lookup', 'convert', 'translate', 'list'],
	reasoning: ['explain', 'why', 'prove', 'reason', 'analyze', 'analyse', 'derive', 'plan', 'design', 'tradeoffs', 'architecture'],
	creative: ['poem', 'story', 'creative', 'brainstorm', 'slogan', 'haiku', 'lyrics', 'names'],
};

/** An agent that splits its work into more than this many subagents at once has most likely looped. */
export const defaultMcpMaxTasks = 100;

export const defaultSettings: DelegateSettings = {
	concurrency: 3,
	graceSeconds: 5,
	characteristics: {},
	characteristicWords: Object.fromEntries(Object.entries(defaultCharacteristicWords).map(([key, list]) => [key, [...list]])),
	keys: {},
	logLimitBytes: defaultLogLimitBytes,
	concurrencyPerProvider: {},
	routeBudgets: {},
	budgetAction: 'stop',
	mcpMaxTasks: defaultMcpMaxTasks,
};

export function settingsPath(hermesHome: string): string {
	return path.join(hermesHome, 'delegate.yaml');
}

/** `concurrencySet`: delegate.yaml names a concurrency (else Hermes's max_concurrent_children may). */
export type LoadedSettings = DelegateSettings & {concurrencySet: boolean};

/**
 * Tasks at once when no flag says: delegate.yaml's concurrency, else Hermes's own
 * delegation.max_concurrent_children (what its delegate_task would run), else the default.
 * run, tui and doctor all ask here, so they never disagree.
 */
export function batchConcurrency(settings: LoadedSettings | undefined, maxConcurrentChildren: number | undefined): number {
	if (settings?.concurrencySet) return settings.concurrency;
	return maxConcurrentChildren ?? settings?.concurrency ?? defaultSettings.concurrency;
}

export function loadSettings(file: string): LoadedSettings {
	if (!existsSync(file)) {
		return {...structuredClone(defaultSettings), concurrencySet: false};
	}

	let bytes: Buffer;
	try {
		bytes = readBoundedFile(file, inputLimits.settings);
	} catch (error) {
		if (error instanceof InputError) throw error;
		throw new InputError(`cannot read settings: ${messageOf(error)}`, {file});
	}

	// Outside the try: an encoding problem is reported as one, with its own fix.
	const raw = decodeUtf8(bytes, file);

	const {located, value: data} = readYamlText(raw, {file, fix: 'fix the YAML syntax at that line'});
	const parsed = parseWorded(settingsSchema, data ?? {});
	if (!parsed.success) {
		throw new InputErrors(parsed.error.issues.map(issue => {
			const problem = describeIssue(issue, {noun: 'setting', known: {label: 'known settings', fields: Object.keys(settingsSchema.shape)}});
			return new InputError(problem.message, {file, path: formatPath(problem.path), line: lineOf(located, problem.path)}, problem.fix ?? fixFor(problem.path));
		}));
	}

	const value = parsed.data;
	return {
		concurrency: value.concurrency ?? defaultSettings.concurrency,
		graceSeconds: value.grace ?? defaultSettings.graceSeconds,
		characteristics: value.characteristics ?? {},
		// A characteristic listed here gets exactly these words; the others keep their built-in lists.
		characteristicWords: {...structuredClone(defaultSettings.characteristicWords), ...value.characteristic_words},
		theme: value.theme,
		keys: value.keys ?? {},
		...(value.mouse === undefined ? {} : {mouse: value.mouse}),
		logLimitBytes: value.log_limit === undefined ? defaultLogLimitBytes : logLimitSetting(value.log_limit, file, located),
		concurrencySet: value.concurrency !== undefined,
		...(value.executor ? {executor: value.executor} : {}),
		concurrencyPerProvider: value.concurrency_per_provider ?? {},
		routeBudgets: value.budgets ?? {},
		budgetAction: value.budget_action ?? 'stop',
		stuckAfterMs: value.stuck_after === undefined ? undefined : Math.round(value.stuck_after * 1000),
		mcpMaxTasks: value.mcp?.max_tasks ?? defaultMcpMaxTasks,
	};
}

function logLimitSetting(raw: string | number, file: string, located: LocatedDocument): number {
	const limit = parseLogLimit(raw);
	if (typeof limit !== 'number') {
		throw new InputError(limit.problem, {file, path: 'log_limit', line: lineOf(located, ['log_limit'])}, limit.fix);
	}

	return limit;
}

function fixFor(issuePath: PropertyKey[]): string | undefined {
	switch (issuePath[0]) {
		case 'concurrency': {
			return 'concurrency is how many tasks run at once: a whole number from 1 to 256';
		}

		case 'grace': {
			return 'grace is the seconds between SIGTERM and SIGKILL: a number from 0 to 3600';
		}

		case 'characteristics': {
			return 'map each characteristic to a route name, e.g. `coding: deep`';
		}

		case 'characteristic_words': {
			return 'map each characteristic to a list of words, e.g. `coding: [implement, fix]`';
		}

		case 'theme': {
			return 'a theme name (dark, light, no-color) or the path of a theme file';
		}

		case 'keys': {
			return 'map each dashboard command to a list of keys, e.g. `app.quit: [q]`';
		}

		case 'mouse': {
			return '`mouse: false` leaves the mouse to the terminal (as --no-mouse); true or left out, the dashboard reads clicks and the wheel';
		}

		case 'log_limit': {
			return logLimitFix;
		}

		case 'executor': {
			return 'executor: {nats: nats://HOST:4222} runs the tasks on worker hosts through that NATS server (optional: creds, tls_ca, tls_cert, tls_key: files; worker_wait: seconds); leave it out to run them here';
		}

		case 'concurrency_per_provider': {
			return 'map each provider to how many of its tasks run at once, e.g. `openrouter: 4` (a whole number from 1 to 256)';
		}

		case 'budgets': {
			return 'map each route name to its budget, e.g. `deep: {usd: 2}` or `fast: {tokens: 500000}` (positive numbers; tokens whole)';
		}

		case 'budget_action': {
			return '`stop` (no further task of the scope starts) or `cancel` (its running tasks are cancelled too)';
		}

		case 'stuck_after': {
			return 'seconds without output or tool activity before a task shows as stuck, e.g. 300 (at most 86400)';
		}

		default: {
			return undefined;
		}
	}
}
