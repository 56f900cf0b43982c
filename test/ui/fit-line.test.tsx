// A pane's tail is one Text of lines cut by fitLine (ui/text/output-line.ts) instead of one
// <Text wrap='truncate'> per line: what the operator sees must not change. Each line is drawn
// both ways by Ink and the frames compared.
import {Box, Text} from 'ink';
import cliTruncate from 'cli-truncate';
import fc from 'fast-check';
import {render} from 'ink-testing-library';
import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {fitLine} from '../../src/ui/text/output-line.js';

const lines = [
	'short',
	'exactly twenty chars',
	'a line that is much longer than the pane is wide',
	'日本語の文字列はふたつの列をとります、とても長い',
	'emoji 😀😀😀😀😀😀😀😀😀😀😀 at the end',
	'\u001B[31mred text that goes on and on past the edge\u001B[39m',
	'\u001B[1mbold\u001B[22m then plain text beyond the width of it',
	'é combining and accents éééééééééééééééééééé',
];

function frame(node: React.ReactElement): string {
	const {lastFrame, unmount} = render(node);
	const text = lastFrame() ?? '';
	unmount();
	return text;
}

describe('fitLine', () => {
	it.for([1, 5, 20, 33])('draws every line as <Text wrap="truncate"> does, never wider, %i columns wide', width => {
		for (const line of lines) {
			const fitted = fitLine(line, width);
			expect(stringWidth(fitted)).toBeLessThanOrEqual(width);
			const byInk = frame(<Box width={width}><Text wrap='truncate'>{line}</Text></Box>);
			// Where Ink's own cut overflows (a wide character before the '…'), it lets the edge clip
			// the '…'; fitLine cuts one character earlier and keeps it.
			if (byInk.split('\n').length === 1 && stringWidth(byInk) <= width) {
				expect(frame(<Box width={width}><Text>{fitted}</Text></Box>)).toBe(byInk);
			} else {
				expect(fitted.endsWith('…') || fitted.endsWith('…\u001B[39m')).toBe(true);
			}
		}
	});

	it('draws a whole tail as one Text exactly as one Text per line', () => {
		for (const width of [7, 24]) {
			const fitted = lines.map(line => fitLine(line, width));
			const perLine = frame(<Box flexDirection='column' width={width}>{fitted.map((line, index) => <Text key={index} wrap='truncate'>{line}</Text>)}</Box>);
			const joined = frame(<Box flexDirection='column' width={width}><Text>{fitted.join('\n')}</Text></Box>);
			expect(joined).toBe(perLine);
		}
	});

	it('cuts printable ASCII (its own quick path) exactly as cli-truncate does', () => {
		const ascii = fc.string({unit: fc.integer({min: 0x20, max: 0x7E}).map(code => String.fromCharCode(code)), maxLength: 60});
		fc.assert(fc.property(ascii, fc.integer({min: -1, max: 50}), (line, width) => {
			expect(fitLine(line, width)).toBe(width > 0 && stringWidth(line) > width ? cliTruncate(line, width) : line);
		}), {numRuns: 2000});
	});
});
