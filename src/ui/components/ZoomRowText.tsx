// One screen row of a zoomed line (ui/text/zoom-rows.ts says which columns): in its own colours, or,
// on a line the search matches, as plain text with the matches marked. Nested in the row's Text.
import {Text} from 'ink';
import type React from 'react';
import sliceAnsi from 'slice-ansi';
import {matchParts} from '../../core/output/visible-text.js';
import {displayLine} from '../text/output-line.js';
import {lineWidth, type ZoomRow} from '../text/zoom-rows.js';

export type ZoomRowTextProps = {
	readonly line: string;
	readonly row: ZoomRow;
	/** Cut at the edges (not wrapped): a '…' says the line goes on past an edge. */
	readonly cut: boolean;
	/** The line the search jumped to: plain text on the current-match background. */
	readonly current: boolean;
	readonly pattern: RegExp | undefined;
	readonly colour: boolean;
	readonly colours: {current: string | undefined; match: string | undefined};
};

export function ZoomRowText({line, row, cut, current, pattern, colour, colours}: ZoomRowTextProps) {
	const left = cut && row.from > 0;
	const right = cut && lineWidth(line) > row.to;
	const from = row.from + (left ? 1 : 0);
	const to = Math.max(from, row.to - (right ? 1 : 0));
	const parts = pattern === undefined ? undefined : matchParts(line, pattern);
	let body: React.ReactNode;
	if (parts === undefined || (!current && !parts.some(part => part.match))) {
		body = sliceAnsi(displayLine(line, colour), from, to);
	} else {
		// Marked on plain text, so that the line's own colours cannot hide a mark.
		let at = 0;
		body = parts.flatMap((part, index): React.ReactNode[] => {
			const width = lineWidth(part.text);
			const start = at;
			at += width;
			const shown = start >= to || at <= from ? '' : sliceAnsi(part.text, Math.max(0, from - start), Math.min(width, to - start));
			if (shown === '') {
				return [];
			}

			if (!part.match) {
				return [shown];
			}

			const background = current ? colours.current : colours.match;
			return [<Text key={index} backgroundColor={background} inverse={background === undefined} bold underline>{shown}</Text>];
		});
	}

	const text = (
		<>
			{left && '…'}
			{body === '' || (Array.isArray(body) && body.length === 0) ? ' ' : body}
			{right && '…'}
		</>
	);
	// The current match's whole row is on the highlight (inverse without colour), so the eye finds it.
	return current
		? <Text backgroundColor={colours.current} inverse={colours.current === undefined} bold>{text}</Text>
		: text;
}
