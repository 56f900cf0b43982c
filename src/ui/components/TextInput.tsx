// A one-line text field as it is drawn: the text with the cursor shown inverse, scrolled so the
// cursor stays in view. Its state lives in the store and its keys go through text-field.ts.
import {Text} from 'ink';
import type {TextField} from '../../state/text-field.js';
import {useTheme} from '../theme.js';

export function TextInput({field, width}: {readonly field: TextField; readonly width: number}) {
	const theme = useTheme();
	const characters = [...field.value];
	const cursor = Math.min(Math.max(0, field.cursor), characters.length);
	const room = Math.max(1, width - 1);
	const start = Math.max(0, cursor - room + 1);
	const before = characters.slice(start, cursor).join('');
	const under = characters[cursor] ?? ' ';
	const after = characters.slice(cursor + 1, start + room).join('');
	return (
		<Text wrap='truncate-end' color={theme.colors.text.primary}>
			{before}
			<Text inverse>{under}</Text>
			{after}
		</Text>
	);
}
