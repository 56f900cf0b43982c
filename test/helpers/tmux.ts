// A real pseudo-terminal for end-to-end tests: a command runs in a detached tmux session on a
// private server (its own -L socket, no user config), and the test reads the screen as a user
// would see it. Waiting means polling the screen for what should appear, never sleeping.
import {execFileSync} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import {rmSync} from 'node:fs';
import path from 'node:path';

export type TmuxOptions = {
	/** Extra environment for the command, on top of a small clean base (see baseEnv). */
	env?: Readonly<Record<string, string>>;
	columns?: number;
	rows?: number;
};

export type CaptureOptions = {
	/** Keep colours and attributes as SGR sequences (`capture-pane -e`). */
	escapes?: boolean;
	/** Join lines the terminal wrapped, so a long path reads as one line. */
	joined?: boolean;
};

export type WaitOptions = {timeoutMs?: number; message?: string};

export type ScreenMatch = RegExp | ((screen: string) => boolean);

export type TmuxSession = {
	readonly socket: string;
	/** The visible screen (the alternate screen while a full-screen app is on it). */
	capture(options?: CaptureOptions): string;
	/** The screen once two captures in a row agree: never a frame tmux is part-way through drawing. */
	settled(options?: CaptureOptions): Promise<string>;
	/** tmux key names or characters: 'q', 'Tab', 'Enter', 'Escape', 'Up'. */
	sendKeys(...keys: string[]): void;
	/** Pastes the text as a terminal does: line breaks sent as CR, between ESC[200~ and ESC[201~ only if the app turned bracketed paste on. */
	paste(text: string): void;
	/** Polls the screen until it matches, settled (see settled()); resolves with it, fails showing the last one. */
	waitForScreen(match: ScreenMatch, options?: WaitOptions): Promise<string>;
	/** The command's exit code, once the shell has printed `EXIT=<code>` after it. */
	waitForExit(options?: WaitOptions): Promise<{code: number; screen: string}>;
	/** A tmux format about the pane, e.g. '#{pane_title}', '#{alternate_on}'. */
	display(format: string): string;
	resize(columns: number, rows: number): void;
	/** Ends the server and with it the pane's processes (they get SIGHUP). Safe to call twice. */
	kill(): void;
};

let counter = 0;

/** POSIX shell quoting: the argument exactly, whatever it contains. */
export function shellQuote(argument: string): string {
	return /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replaceAll("'", "'\\''")}'`;
}

// Only what a terminal session needs: the vitest worker's own variables (CI above all, which
// makes Ink stop drawing live frames, and NO_COLOR/FORCE_COLOR) must not leak into the app.
// The test's node comes first on PATH, so `#!/usr/bin/env node` scripts run on it too.
function baseEnv(): Record<string, string> {
	const env: Record<string, string> = {
		PATH: [path.dirname(process.execPath), process.env['PATH'] ?? '/usr/bin:/bin'].join(path.delimiter),
		LANG: 'C.UTF-8',
	};
	for (const name of ['HOME', 'USER', 'TMPDIR', 'TMUX_TMPDIR']) {
		const value = process.env[name];
		if (value !== undefined) env[name] = value;
	}

	return env;
}

/**
 * Starts `argv` in a new tmux session; afterwards the shell prints `EXIT=<code>` and stays
 * (the pane keeps the last screen readable until kill()).
 */
export function startTmux(argv: readonly string[], options: TmuxOptions = {}): TmuxSession {
	const socket = `hd-e2e-${process.pid}-${++counter}-${randomBytes(3).toString('hex')}`;
	const target = `${socket}:0.0`;
	const serverEnv = baseEnv();
	// -u: UTF-8 whatever the locale; -f /dev/null: no user configuration.
	const tmux = (...args: string[]) => runTmux(['-u', '-f', '/dev/null', '-L', socket, ...args], serverEnv);
	const script = `${argv.map(shellQuote).join(' ')}; echo EXIT=$?; exec sleep 120`;
	const envArgs = Object.entries(options.env ?? {}).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
	tmux(
		'new-session', '-d', '-s', socket,
		'-x', String(options.columns ?? 160), '-y', String(options.rows ?? 48),
		...envArgs,
		// Several arguments: tmux runs them directly, not through the operator's default-shell.
		'/bin/sh', '-c', script,
	);

	// kill-server leaves its socket file behind; kill() removes it.
	const socketPath = tmux('display-message', '-p', '-t', target, '#{socket_path}').trim();
	let alive = true;
	// tmux parses a frame in chunks and may answer a capture between two of them, showing the top
	// of the new frame above a blank rest: a screen is whole once two captures in a row agree.
	const settle = async (match: (screen: string) => boolean, capture: CaptureOptions, {timeoutMs = 20_000, message}: WaitOptions): Promise<string> => {
		const deadline = Date.now() + timeoutMs;
		let previous: string | undefined;
		for (;;) {
			const screen = session.capture(capture);
			if (screen === previous && match(screen)) return screen;
			if (Date.now() > deadline) {
				throw new Error(`timed out after ${timeoutMs} ms waiting for ${message}; the screen was:\n${screen.trimEnd()}`);
			}

			previous = screen;
			await new Promise(resolve => setTimeout(resolve, 50));
		}
	};

	const session: TmuxSession = {
		socket,
		capture({escapes = false, joined = false} = {}) {
			return tmux('capture-pane', '-p', '-t', target, ...(escapes ? ['-e'] : []), ...(joined ? ['-J'] : []));
		},
		sendKeys(...keys) {
			tmux('send-keys', '-t', target, ...keys);
		},
		paste(text) {
			tmux('set-buffer', '-b', 'test-paste', '--', text);
			tmux('paste-buffer', '-p', '-d', '-b', 'test-paste', '-t', target);
		},
		async settled(options = {}) {
			return settle(() => true, options, {message: 'two captures in a row to agree'});
		},
		async waitForScreen(match, options = {}) {
			return settle(typeof match === 'function' ? match : (screen: string) => match.test(screen), {}, {...options, message: options.message ?? String(match)});
		},
		async waitForExit(options = {}) {
			await session.waitForScreen(/^EXIT=\d+$/m, {message: 'the command to exit (EXIT=<code>)', ...options});
			const screen = session.capture({joined: true});
			const code = Number(/^EXIT=(\d+)$/m.exec(screen)?.[1]);
			return {code, screen};
		},
		display(format) {
			return tmux('display-message', '-p', '-t', target, format).replace(/\n$/, '');
		},
		resize(columns, rows) {
			tmux('resize-window', '-t', target, '-x', String(columns), '-y', String(rows));
		},
		kill() {
			if (!alive) return;
			alive = false;
			try {
				tmux('kill-server');
			} catch {
				// Already gone: the session ended by itself.
			}

			rmSync(socketPath, {force: true});
		},
	};
	return session;
}

function runTmux(args: readonly string[], env: NodeJS.ProcessEnv): string {
	try {
		return execFileSync('tmux', args, {encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe']});
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			throw new Error('tmux is not installed; the terminal tests need it (apt-get install tmux, brew install tmux)');
		}

		const stderr = (error as {stderr?: string}).stderr ?? '';
		throw new Error(`tmux ${args.join(' ')} failed: ${stderr.trim() || (error as Error).message}`);
	}
}

/** The SGR sequences on a `capture({escapes: true})` screen that set a colour (not bold, not a reset). */
export function colourCodes(screen: string): string[] {
	const found: string[] = [];
	for (const match of screen.matchAll(/\u001B\[([\d;:]*)m/g)) {
		const params = (match[1] ?? '').split(/[;:]/).map(Number);
		const colour = params.some(param => param === 38 || param === 48 || (param >= 30 && param <= 37) || (param >= 40 && param <= 47) || (param >= 90 && param <= 97) || (param >= 100 && param <= 107));
		if (colour) found.push(match[0]);
	}

	return found;
}
