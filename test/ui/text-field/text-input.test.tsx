// A text field shows where it ends: underlined from its first column to its last, an attribute
// that shows under the no-color theme as well as in colour.
import '../../helpers/force-color.js';
import {Box} from 'ink';
import {cleanup, render} from 'ink-testing-library';
import {afterEach, describe, expect, test} from 'vitest';
import {loadTheme} from '../../../src/core/theme/themes.js';
import {fieldAtEnd} from '../../../src/state/text-field.js';
import {TextInput} from '../../../src/ui/text-field/TextInput.js';
import {ThemeProvider} from '../../../src/ui/theme/theme.js';
import {stripAnsi} from '../../helpers/render.js';

afterEach(cleanup);

/** The field's cells that are underlined, as text. */
function underlinedText(frame: string): string {
	let underlined = '';
	let on = false;
	for (const part of frame.split(/(\u001B\[[\d;]*m)/)) {
		const codes = /^\u001B\[([\d;]*)m$/.exec(part)?.[1]?.split(';');
		if (codes) {
			if (codes.includes('4')) on = true;
			if (codes.includes('24') || codes.includes('0')) on = false;
		} else if (on) {
			underlined += part;
		}
	}

	return underlined;
}

describe('TextInput', () => {
	test.each([['dark', false], ['no-color', true]] as const)('under the %s theme the whole field is underlined, past the text to its end', (name, noColor) => {
		const {lastFrame} = render(
			<ThemeProvider theme={loadTheme(name === 'no-color' ? undefined : name, {noColor})}>
				<Box width={40}><TextInput field={fieldAtEnd('fast')} width={30}/></Box>
			</ThemeProvider>,
		);
		const frame = lastFrame() ?? '';
		expect(stripAnsi(frame)).toMatch(/^fast/);
		// 29 cells of text and blank, then the cursor cell at the end of the text (its own style).
		expect(underlinedText(frame).length).toBeGreaterThanOrEqual(28);
		expect(underlinedText(frame)).toMatch(/^fast {24,}$/);
	});
});
