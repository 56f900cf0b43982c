// The terminal while the dashboard has it: the alternate screen, bracketed paste and mouse
// reporting on, and off again however the process ends; the keyboard, when stdin is not it.
import {openSync, writeSync} from 'node:fs';
import {ReadStream} from 'node:tty';
import {mouseOff, mouseOn} from '../ui/mouse/sgr.js';

/**
 * The alternate screen keeps the operator's scrollback intact and gives the frame a fixed canvas.
 * Bracketed paste (?2004) makes the terminal mark a paste, so that it is read as text and never
 * as keys (ui/keys/paste-reader.ts). Mouse reporting (?1000, ?1006 for SGR) lets a click focus and
 * the wheel scroll (ui/mouse/). Whatever ends the process while they are on (an error nobody
 * expected included) turns them all off, with the cursor shown, through a synchronous write on exit:
 * an asynchronous one would never flush, and a shell left in bracketed paste gets the markers
 * (left reporting the mouse, it gets a report for every click).
 */
export function enterAlternateScreen(stdout: NodeJS.WriteStream, mouse: boolean): () => void {
	// The mouse off whether or not it was on: harmless, and no path can forget it.
	const leave = `${mouseOff}\u001B[?2004l\u001B[?25h\u001B[?1049l`;
	const {fd} = stdout as Partial<{fd: number}>;
	const onExit = () => {
		try {
			if (fd !== undefined) writeSync(fd, leave);
		} catch {
			// The terminal is gone: nothing left to restore.
		}
	};

	stdout.write(`\u001B[?1049h\u001B[H\u001B[?2004h${mouse ? mouseOn : ''}`);
	process.on('exit', onExit);
	return () => {
		process.off('exit', onExit);
		stdout.write(leave);
	};
}

/** Tasks piped in on stdin leave the keyboard on the controlling terminal: read keys from there. */
export function keyboardStream(stdin: NodeJS.ReadStream): NodeJS.ReadStream {
	if (stdin.isTTY) {
		return stdin;
	}

	try {
		return new ReadStream(openSync('/dev/tty', 'r')) as NodeJS.ReadStream;
	} catch {
		return stdin; // no controlling terminal: the dashboard runs without keys (q via signals)
	}
}
