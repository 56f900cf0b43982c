// A one-line text field as it is drawn: the text with the cursor shown inverse, scrolled so the
// cursor stays in view, underlined to the field's end so that where it stops is visible (an
// attribute, not a colour: it shows under the no-color theme too). Its state lives in the store
// and its keys go through edit.ts.
import {Text} from 'ink';
import type {TextField} from '../../state/text-field.js';
import {useTheme} from '../theme/theme.js';

export function TextInput({field, width}: {readonly field: TextField; readonly width: number}) {
	const theme = useTheme();
	const characters = [...field.value];
	const cursor = Math.min(Math.max(0, field.cursor), characters.length);
	const room = Math.max(1, width - 1);
	const start = Math.max(0, cursor - room + 1);
	const before = characters.slice(start, cursor).join('');
	const under = characters[cursor] ?? ' ';
	const after = characters.slice(cursor + 1, start + room).join('');
	const fill = ' '.repeat(Math.max(0, room - [...before].length - 1 - [...after].length));
	return (
		<Text wrap='truncate-end' underline color={theme.colors.text.primary}>
			{before}
			<Text inverse>{under}</Text>
			{after}
			{fill}
		</Text>
	);
}
