// The routing and settings a tool call sees: read from config.yaml and delegate.yaml at each call
// (the `routes` tool is always live, whatever the tool list the agent holds says).
import {defaultConfigPath, loadHermesConfig} from '../core/config/config.js';
import {defaultMcpMaxTasks, loadSettings, settingsPath} from '../core/config/settings.js';
import type {DelegationConfig} from '../core/types.js';
import type {McpContext} from './context.js';
import {routesView, type RoutesView} from './routes-view.js';

export type Routing = {delegation: DelegationConfig; view: RoutesView; maxTasks: number; warnings: string[]};

/** Throws the config's InputError (file, field, fix) when config.yaml or delegate.yaml cannot be used. */
export function readRouting(context: McpContext): Routing {
	const {config} = context.options;
	const loaded = loadHermesConfig({configPath: config ?? defaultConfigPath(context.hermesHome), hermesHome: context.hermesHome, explicit: config !== undefined});
	const settings = loadSettings(settingsPath(context.hermesHome));
	return {delegation: loaded.delegation, view: routesView(loaded.delegation), maxTasks: settings.mcpMaxTasks ?? defaultMcpMaxTasks, warnings: loaded.warnings};
}

/** The config file the routing is read from (watched for changes). */
export function configPathOf(context: McpContext): string {
	return context.options.config ?? defaultConfigPath(context.hermesHome);
}
