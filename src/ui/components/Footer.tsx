// The keys that do something right now (from the binding table, so remapped keys show as
// remapped), above them the store's notice or, while quitting, what is still being stopped.
import {Box, Text} from 'ink';
import {useShallow} from 'zustand/shallow';
import {isAvailable, keyContext, stateLabel} from '../keys/actions.js';
import {formatKey} from '../keys/key-descriptor.js';
import {useBindings} from '../keys/bindings-context.js';
import {footerHints, type KeyHint} from '../keys/keys.js';
import {footerHeight} from '../layout.js';
import {useBatch} from '../store-context.js';
import {shownOrder} from '../../state/task-order.js';
import {useTheme} from '../theme/theme.js';
import {useMouseOn} from '../mouse/mouse-on.js';

export type FooterProps = {
	readonly width: number;
	/** Panes of the grid not on screen: said first, or the operator cannot know they are there. */
	readonly offScreen?: number;
};

export function Footer({width, offScreen = 0}: FooterProps) {
	const bindings = useBindings();
	const theme = useTheme();
	// Flattened to strings so that a store update which changes no hint renders nothing.
	const flatHints = useBatch(useShallow(state => footerHints(bindings, keyContext(state), {
		available: command => isAvailable(command, state),
		label: command => stateLabel(command, state),
	}).flatMap(hint => [hint.keys, hint.label, hint.pinned ? 'pinned' : ''])));
	const notice = useBatch(state => state.notice);
	const stopping = useBatch(useShallow(state => (state.quitting
		? state.order.filter(id => {
			const status = state.tasks[id]?.status;
			return status === 'running' || status === 'cancelling';
		})
		: [])));
	const quitting = useBatch(state => state.quitting);
	const killKey = formatKey(bindings.get('task.kill')?.[0] ?? 'K');
	// The filter's prompt while it is typed, with how many tasks it leaves (state/task-order.ts).
	const prompt = useBatch(state => {
		if (state.overlay?.kind !== 'filter') return null;
		const characters = [...state.overlay.field.value];
		const cursor = Math.min(Math.max(0, state.overlay.field.cursor), characters.length);
		return `/${characters.slice(0, cursor).join('')}▏${characters.slice(cursor).join('')}  ${shownOrder(state).length} of ${state.order.length} tasks`;
	});
	const statusLine = quitting ? quittingLine(stopping, killKey) : prompt ?? notice;
	const more = offScreen > 0 ? `+${offScreen} more` : '';
	const room = width - (more === '' ? 0 : [...more].length + hintGap);
	const hints = withMouseHint(unflatten(flatHints), useMouseOn(), room);

	return (
		<Box flexDirection='column' width={width} height={footerHeight(statusLine !== null)} overflow='hidden'>
			{statusLine !== null && (
				<Text wrap='truncate-end' color={quitting ? theme.colors.text.warning : theme.colors.text.accent}>{statusLine}</Text>
			)}
			<Text wrap='truncate-end'>
				{more !== '' && <Text bold color={theme.colors.text.warning}>{more}</Text>}
				{hints.map((hint, index) => (
					<Text key={hint.label + hint.keys}>
						{index > 0 || more !== '' ? ' '.repeat(hintGap) : ''}
						<Text bold color={theme.colors.text.accent}>{hint.keys}</Text>
						<Text color={theme.colors.text.muted}>{` ${hint.label}`}</Text>
					</Text>
				))}
			</Text>
		</Box>
	);
}

/** The line a stuck shutdown is diagnosed from: which tasks are still being stopped. */
function quittingLine(stopping: readonly string[], killKey: string): string {
	if (stopping.length === 0) {
		return 'quitting: waiting for the batch to finish…';
	}

	const count = stopping.length === 1 ? '1 task' : `${stopping.length} tasks`;
	return `quitting: stopping ${count} (${stopping.join(', ')})… ${killKey} kills now`;
}

const hintGap = 2;

/** The mouse is on, and text is still selected as usual: with Shift held, in most terminals. */
export const mouseHint: KeyHint = {keys: 'mouse', label: 'on (shift+drag selects)', pinned: true};
/** Where the whole one does not fit beside the pinned keys: the help says the rest. */
const shortMouseHint: KeyHint = {keys: 'mouse', label: 'on', pinned: true};

/**
 * The hints that fit, with the mouse's state last when it is on (docs/dashboard.md).
 * Keys come first: the whole sentence only where every key fits beside it, else `mouse on`, which
 * stays while other keys give way, as help and quit do (the help says how to select text).
 */
export function withMouseHint(hints: readonly KeyHint[], mouse: boolean, width: number): KeyHint[] {
	if (!mouse) return fitHints(hints, width);
	const whole = [...hints, mouseHint];
	return hintsLength(whole) <= width ? whole : fitHints([...hints, shortMouseHint], width);
}

function hintsLength(hints: readonly KeyHint[]): number {
	return hints.reduce((sum, hint, index) => sum + (index > 0 ? hintGap : 0) + [...`${hint.keys} ${hint.label}`].length, 0);
}

/** The hints that fit on one line, dropping the last unpinned one first (pinned: help and quit). */
export function fitHints(hints: readonly KeyHint[], width: number): KeyHint[] {
	const kept = [...hints];
	const length = () => hintsLength(kept);
	while (length() > width) {
		const last = kept.findLastIndex(hint => !hint.pinned);
		if (last === -1) {
			break;
		}

		kept.splice(last, 1);
	}

	return kept;
}

function unflatten(flat: readonly string[]): KeyHint[] {
	const hints: KeyHint[] = [];
	for (let index = 0; index + 2 < flat.length; index += 3) {
		hints.push({keys: flat[index]!, label: flat[index + 1]!, pinned: flat[index + 2] === 'pinned'});
	}

	return hints;
}
