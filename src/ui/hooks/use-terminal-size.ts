// The terminal's size, following resizes. Overrides pin it (tests, and callers that know better).
import {useStdout} from 'ink';
import {useEffect, useState} from 'react';

export type TerminalSize = {columns: number; rows: number};

// What a terminal reports when it reports nothing (piped stdout, some CI runners).
const fallback: TerminalSize = {columns: 80, rows: 24};

function read(stdout: NodeJS.WriteStream): TerminalSize {
	return {columns: stdout.columns || fallback.columns, rows: stdout.rows || fallback.rows};
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
