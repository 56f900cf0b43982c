// Which interface a fake `hermes chat -q` opens: the classic one (answers and exits) or Hermes's
// TUI, which, started without a terminal, prints that it has none and exits 0 having done
// nothing (upstream issue 40095; docs/hermes-releases.md). In upstream's source an explicit --cli
// wins, an explicit --tui always opens the TUI, and otherwise HERMES_TUI=1 or
// `display.interface: tui` in the home's config.yaml ask for it. Releases with the no-TTY gate
// ignore those two ambient wishes on a pipe; a release without it (FAKE_HERMES_TUI_HANDOFF=1 poses
// as one) follows them, so the launcher's --cli and its dropping of HERMES_TUI can be tested.
import {readFileSync} from 'node:fs';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {parse} from 'yaml';
import type {ChatCommand} from './command-line.js';

/** The home a run reads its config from: -p NAME's, else the root (the fake ignores active_profile here). */
function homeOf(command: ChatCommand, env: NodeJS.ProcessEnv): string {
	const root = env['HERMES_HOME']?.trim() || join(homedir(), '.hermes');
	return command.profile === undefined || command.profile === 'default' ? root : join(root, 'profiles', command.profile);
}

function configuredInterface(home: string): string | undefined {
	try {
		const config: unknown = parse(readFileSync(join(home, 'config.yaml'), 'utf8'), {version: '1.1'});
		const display = typeof config === 'object' && config !== null ? (config as Record<string, unknown>)['display'] : undefined;
		const chosen = typeof display === 'object' && display !== null ? (display as Record<string, unknown>)['interface'] : undefined;
		return typeof chosen === 'string' ? chosen.trim().toLowerCase() : undefined;
	} catch {
		return undefined;
	}
}

export function opensTui(command: ChatCommand, env: NodeJS.ProcessEnv): boolean {
	if (command.cli) return false;
	if (command.tui) return true;
	if (env['FAKE_HERMES_TUI_HANDOFF'] !== '1') return false; // the no-TTY gate: stdio is never a terminal here
	return env['HERMES_TUI'] === '1' || configuredInterface(homeOf(command, env)) === 'tui';
}

/** What the TUI prints when it finds no terminal; the process then exits 0. */
export const noTtyMessage = 'hermes-tui: no TTY\n';
