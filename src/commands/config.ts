// `hermes-delegate config show` (also `config` and `config --show`): the routing configuration
// as hermes-delegate reads it. An api_key is never printed, only that one is set, with a warning
// that it is plain text. Everything from the file is made terminal-safe before it is printed.
import {existsSync} from 'node:fs';
import {defaultConfigPath, loadHermesConfig} from '../core/config/config.js';
import {resolveHermesHome} from '../core/hermes/home.js';
import {activeRoutes} from '../core/plan/routing.js';
import {loadSettings, settingsPath} from '../core/config/settings.js';
import type {BuiltinDelegation, DelegationConfig, ModelRoute} from '../core/types.js';
import {jsonText, terminalSafe} from '../core/output/visible-text.js';
import type {ConfigOptions} from './flags.js';
import type {CommandIO} from './io.js';

export function configCommand(options: ConfigOptions, commandIO: Pick<CommandIO, 'stdout' | 'stderr' | 'env'>): number {
	const io = safeOutput(commandIO);
	const hermesHome = resolveHermesHome(io.env);
	const configPath = options.config ?? defaultConfigPath(hermesHome);
	const loaded = loadHermesConfig({configPath, hermesHome, explicit: options.config !== undefined});
	const settings = loadSettings(settingsPath(hermesHome));
	// Named as missing where it is: the defaults apply, and that is the file to create for others.
	const settingsFound = existsSync(settingsPath(hermesHome));
	for (const warning of loaded.warnings) {
		io.stderr.write(`hermes-delegate: warning: ${terminalSafe(warning)}\n`);
	}

	const view = redacted(loaded.delegation);
	// What a run would use without -j: delegate.yaml's, else Hermes's max_concurrent_children, else 3.
	const hermesConcurrency = settings.concurrencySet ? undefined : loaded.delegation.builtin.max_concurrent_children;
	if (options.json) {
		commandIO.stdout.write(`${jsonText({...view, settings: {file: settingsPath(hermesHome), exists: settingsFound, concurrency: hermesConcurrency ?? settings.concurrency, grace: settings.graceSeconds, characteristics: settings.characteristics, theme: settings.theme ?? null}}, 2)}\n`);
		return 0;
	}

	const builtin = describeBuiltin(view.builtin);
	const concurrency = hermesConcurrency === undefined ? `${settings.concurrency}` : `${hermesConcurrency} (Hermes's delegation.max_concurrent_children)`;
	const lines = [
		`config: ${configPath}${loaded.delegation.source.exists ? '' : ' (not found: built-in delegation)'}`,
		`active mode: ${loaded.delegation.mode}${loaded.delegation.mode === 'default' ? ` (built-in: ${builtin ? 'Hermes\'s own delegation settings' : 'every subagent on the parent\'s model'})` : ` (${activeRoutes(loaded.delegation).length} routes)`}`,
		`built-in (Hermes's own delegation keys): ${builtin || '-'}`,
		'',
		`model_map${loaded.delegation.mode === 'model_map' ? ' [active]' : ''}  default: ${view.model_map.default ?? '-'}`,
		...view.model_map.options.map(route => `  ${route.name.padEnd(12)} ${[route.provider ?? route.base_url, route.model, route.reasoning_effort ? `reasoning ${route.reasoning_effort}` : undefined, route.service_tier ? `tier ${route.service_tier}` : undefined, route.api_key ? 'api_key set (plain text!)' : undefined].filter(Boolean).join(' · ')}\n    ${route.description}`),
		`profile_routes${loaded.delegation.mode === 'profile_routes' ? ' [active]' : ''}  default: ${view.profile_routes.default ?? '-'}`,
		...view.profile_routes.profiles.map(route => `  ${route.name.padEnd(12)} ${route.description}`),
		'',
		`settings: ${settingsPath(hermesHome)}${settingsFound ? '' : ' (not found: the defaults)'} · concurrency ${concurrency} · grace ${settings.graceSeconds}s`,
	];
	io.stdout.write(`${terminalSafe(lines.join('\n'))}\n`);
	return 0;
}

/**
 * Route names, descriptions and models come from the config file, as untrusted as anything a
 * subagent prints: every text line written goes through the sanitiser here, JSON is escaped instead.
 */
function safeOutput(io: Pick<CommandIO, 'stdout' | 'stderr' | 'env'>) {
	return {
		env: io.env,
		stdout: {write: (text: string) => io.stdout.write(terminalSafe(text))},
		stderr: {write: (text: string) => io.stderr.write(terminalSafe(text))},
	};
}

type RedactedModelRoute = Omit<ModelRoute, 'api_key' | 'kind'> & {api_key?: string};
const notShown = '<set: stored in plain text, not shown>';

function redacted(delegation: DelegationConfig) {
	const options: RedactedModelRoute[] = delegation.modelMap.options.map(({kind: _kind, api_key: apiKey, ...route}) => (apiKey === undefined ? route : {...route, api_key: notShown}));
	const {api_key: builtinKey, ...builtin} = delegation.builtin;
	return {
		config: delegation.source.path,
		exists: delegation.source.exists,
		mode: delegation.mode,
		builtin: builtinKey === undefined ? builtin : {...builtin, api_key: notShown},
		model_map: {options, default: delegation.modelMap.default ?? null},
		profile_routes: {profiles: delegation.profileRoutes.profiles.map(({kind: _kind, ...route}) => route), default: delegation.profileRoutes.default ?? null},
	};
}

function describeBuiltin(builtin: Omit<BuiltinDelegation, 'api_key'> & {api_key?: string}): string {
	return [
		builtin.provider ?? builtin.base_url,
		builtin.model,
		builtin.reasoning_effort ? `reasoning ${builtin.reasoning_effort}` : undefined,
		builtin.max_iterations === undefined ? undefined : `max_iterations ${builtin.max_iterations}`,
		builtin.max_concurrent_children === undefined ? undefined : `max_concurrent_children ${builtin.max_concurrent_children}`,
		builtin.api_key ? 'api_key set (plain text!)' : undefined,
	].filter(Boolean).join(' · ');
}
