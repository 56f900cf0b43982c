// The header's line about the worker hosts, for a batch whose tasks run on them (--nats): who is
// live with how many free slots, who was lost, and whether the runner host reaches NATS at all.
import {Text} from 'ink';
import {useShallow} from 'zustand/shallow';
import {fleetText} from '../text/fleet.js';
import {useBatch} from '../store-context.js';
import {useTheme} from '../theme/theme.js';

export function FleetLine() {
	const theme = useTheme();
	// Strings, so it re-renders when what it says changes (the clock moves the "lost … ago").
	const text = useBatch(useShallow(state => (state.fleet ? fleetText(state.fleet, state.now) : null)));
	if (!text) return null;
	return (
		<Text wrap='truncate'>
			{text.offline && <Text bold color={theme.colors.text.error}>{text.offline}</Text>}
			<Text color={theme.colors.header.info}>{text.workers}</Text>
		</Text>
	);
}
