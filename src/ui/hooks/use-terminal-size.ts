// The terminal's size, following resizes. Overrides pin it (tests, and callers that know better).
import {useStdout} from 'ink';
import {useEffect, useState} from 'react';

export type TerminalSize = {columns: number; rows: number};

// What a terminal reports when it reports nothing (piped stdout, some CI runners).
const fallback: TerminalSize = {columns: 80, rows: 24};

function read(stdout: NodeJS.WriteStream): TerminalSize {
	return {columns: stdout.columns || fallback.columns, rows: stdout.rows || fallback.rows};
}

/**
 * Makes a zero-size terminal (columns or rows 0) report the fallback size instead. Ink asks the
 * terminal-size package whenever stdout.columns is 0, on every frame, and that opens /dev/tty each
 * time without closing it: a descriptor per frame until EMFILE fails the tasks' spawns. Call it
 * before render(); Node still sets the real size on a resize, and the real size wins once non-zero.
 */
export function reportZeroSizeAsFallback(stdout: NodeJS.WriteStream): void {
	for (const key of ['columns', 'rows'] as const) {
		let actual = stdout[key];
		Object.defineProperty(stdout, key, {
			configurable: true,
			enumerable: true,
			get: () => actual || fallback[key],
			set(value: number) {
				actual = value;
			},
		});
	}
}

export function useTerminalSize(override: Partial<TerminalSize> = {}): TerminalSize {
	const {stdout} = useStdout();
	const [size, setSize] = useState(() => read(stdout));
	useEffect(() => {
		const onResize = () => {
			const next = read(stdout);
			setSize(previous => previous.columns === next.columns && previous.rows === next.rows ? previous : next);
		};

		// A resize between the first render and this effect would otherwise be missed.
		onResize();
		stdout.on('resize', onResize);
		return () => {
			stdout.off('resize', onResize);
		};
	}, [stdout]);

	return {columns: override.columns ?? size.columns, rows: override.rows ?? size.rows};
}
