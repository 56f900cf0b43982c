// Two lines about the batch (a third with warnings, another with the worker hosts of a batch on them): which run, how it routes, how far along it is.
import {Box, Text} from 'ink';
import {useShallow} from 'zustand/shallow';
import type {RoutingMode, TaskStatus} from '../../core/types.js';
import {formatElapsed} from '../../core/text/durations.js';
import {configMark} from '../../state/steer.js';
import {formatCount, statusLabels, statusOrder, statusSymbols} from '../text/format.js';
import {formatKey} from '../keys/key-descriptor.js';
import {useBindings} from '../keys/bindings-context.js';
import {headerHeight} from '../layout.js';
import {batchSpendSummary, burnRate, stuckCount} from '../../state/spend-view.js';
import {budgetTexts, burnText, headerSpendText} from '../text/spend.js';
import {useBatch} from '../store-context.js';
import {FleetLine} from './FleetLine.js';
import {statusColor, useTheme} from '../theme/theme.js';

const modeLabels: Readonly<Record<RoutingMode, string>> = {
	model_map: 'model routes',
	profile_routes: 'profile routes',
	default: 'parent model',
};

export function Header({width}: {readonly width: number}) {
	const bindings = useBindings();
	const theme = useTheme();
	const info = useBatch(useShallow(state => ({
		runId: state.runId,
		origin: state.origin,
		mode: state.mode,
		concurrency: state.concurrency,
		total: state.order.length,
		finished: state.report !== null,
		readOnly: state.readOnly,
		mark: configMark(state),
	})));
	// A string, so the header re-renders once a second rather than on every tick.
	const elapsed = useBatch(state => formatElapsed((state.finishedAt ?? state.now) - state.startedAt));
	const counts = useBatch(useShallow(countByStatus));
	const warnings = useBatch(state => state.warnings);
	const tokens = useBatch(totalTokens);
	// Strings and numbers, so the header re-renders when what it says changes.
	const spend = useBatch(state => headerSpendText(batchSpendSummary(state)));
	// Beside the spend, while something runs: the rate of the last minutes, from the store's clock (a string: re-rendered when it changes).
	const burn = useBatch(state => (spend !== null && state.order.some(id => state.tasks[id]?.status === 'running') ? burnText(burnRate(state, state.now)) : null));
	const budgets = useBatch(useShallow(state => budgetTexts(state.budgets).map(budget => `${budget.level}\t${budget.text}`)));
	const stuck = useBatch(stuckCount);
	const fleet = useBatch(state => state.fleet !== null);
	// Most watched first. The run id is what attach, logs and wait need: on a narrow terminal the
	// least needed facts give way to it (concurrency, then the burn rate, the mode, the spend).
	const facts = fitFacts([
		{text: info.finished ? `finished after ${elapsed}` : elapsed, drop: 0},
		{text: info.mark ? `${modeLabels[info.mode]} ${info.mark}` : modeLabels[info.mode], drop: 3},
		// A finished run opened from its folder: no concurrency of its own to show, nothing to steer.
		{text: info.readOnly ? 'read-only' : `concurrency ${info.concurrency}`, drop: info.readOnly ? 0 : 5},
		// Spend from state.db once any attempt started; Hermes's stream-json tokens before that.
		{text: spend ?? (tokens > 0 ? `${formatCount(tokens)} tokens` : undefined), drop: 2},
		{text: burn ?? undefined, drop: 4},
		{text: info.origin ? `started by ${info.origin}` : undefined, drop: 4},
		{text: info.runId ? `run ${info.runId}` : undefined, drop: 1},
	], width - [...'hermes-delegate · '].length);

	return (
		<Box flexDirection='column' width={width} height={headerHeight(warnings.length > 0, fleet)} overflow='hidden'>
			<Text wrap='truncate'>
				<Text bold color={theme.colors.header.title}>hermes-delegate</Text>
				<Text color={theme.colors.header.info}>{` · ${facts}`}</Text>
			</Text>
			<Text wrap='truncate'>
				<Text color={theme.colors.header.info}>{`${info.total} ${info.total === 1 ? 'task' : 'tasks'}`}</Text>
				{/* Before the counts: a narrow terminal cuts the end of the line, and a reached budget must show. */}
				{stuck > 0 && <Text color={theme.colors.text.warning}>{`  ⚠ ${stuck} stuck?`}</Text>}
				{budgets.map(entry => {
					const [level, text] = entry.split('\t') as [string, string];
					return <Text key={text} bold={level === 'reached'} color={level === 'reached' ? theme.colors.text.error : theme.colors.text.warning}>{`  ${text}`}</Text>;
				})}
				{statusOrder.filter(status => (counts[status] ?? 0) > 0).map(status => (
					<Text key={status} color={statusColor(theme, status)}>{`  ${statusSymbols[status]} ${counts[status]} ${statusLabels[status]}`}</Text>
				))}
			</Text>
			<FleetLine/>
			{warnings.length > 0 && (
				<Text wrap='truncate' color={theme.colors.text.warning}>
					{warningLine(warnings, width, formatKey(bindings.get('help.toggle')?.[0] ?? '?'))}
				</Text>
			)}
		</Box>
	);
}

type Fact = {text: string | undefined; /** Higher gives way first; 0 never. */ drop: number};

/** The facts joined with ' · ', leaving out the most droppable ones until the line fits `width`. */
export function fitFacts(facts: readonly Fact[], width: number): string {
	let kept = facts.filter((fact): fact is {text: string; drop: number} => Boolean(fact.text));
	const line = () => kept.map(fact => fact.text).join(' · ');
	for (const level of [5, 4, 3, 2, 1]) {
		if ([...line()].length <= width) break;
		kept = kept.filter(fact => fact.drop < level);
	}

	return line();
}

/**
 * The first warning (the store puts the one that matters most first), with where to read the
 * rest (and the end of this one, when the line cuts it).
 */
export function warningLine(warnings: readonly string[], width: number, helpKey: string): string {
	const first = (warnings[0] ?? '').replace(/\s+/g, ' ');
	const whole = `⚠ 1 warning: ${first}`;
	if (warnings.length === 1 && [...whole].length <= width) {
		return whole;
	}

	const count = warnings.length === 1 ? '1 warning' : `${warnings.length} warnings`;
	return `⚠ ${count} (${helpKey} lists ${warnings.length === 1 ? 'it' : 'all'}): ${first}`;
}

/** Tokens Hermes reported for the batch so far, every attempt (stream-json only: -Q does not say). */
function totalTokens(state: {order: readonly string[]; tasks: Readonly<Record<string, {telemetry: {tokens: {total: number} | null} | null; earlierTokens: number}>>}): number {
	let total = 0;
	for (const id of state.order) {
		const task = state.tasks[id];
		total += (task?.telemetry?.tokens?.total ?? 0) + (task?.earlierTokens ?? 0);
	}

	return total;
}

function countByStatus(state: {order: readonly string[]; tasks: Readonly<Record<string, {status: TaskStatus}>>}): Partial<Record<TaskStatus, number>> {
	const counts: Partial<Record<TaskStatus, number>> = {};
	for (const id of state.order) {
		const status = state.tasks[id]?.status;
		if (status) {
			counts[status] = (counts[status] ?? 0) + 1;
		}
	}

	return counts;
}
