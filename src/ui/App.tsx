// The dashboard: header, the task area (grid, list or one zoomed task), footer, and the help,
// spend and confirm overlays. It only composes: state lives in the store, sizes come from layout.ts,
// keys go through use-keys.ts, and the binding table reaches the components through its context.
import {Box, Text, useStdout} from 'ink';
import {useRef} from 'react';
import {useShallow} from 'zustand/shallow';
import type {Theme} from '../core/theme/themes.js';
import {bodyLayer, type BodyLayer} from '../state/overlay.js';
import {shownOrder} from '../state/task-order.js';
import type {BatchStore} from '../state/store-types.js';
import {ConfirmBar, confirmDetachable, confirmQuestion, confirmText} from './components/ConfirmBar.js';
import {Footer} from './components/Footer.js';
import {GridLayout} from './components/GridLayout.js';
import {Header} from './components/Header.js';
import {HelpOverlay} from './components/HelpOverlay.js';
import {ListLayout} from './components/ListLayout.js';
import {RoutesEditor} from './components/RoutesEditor.js';
import {SpendOverlay} from './components/SpendOverlay.js';
import {ZoomView} from './components/ZoomView.js';
import {BindingsProvider, useBindings} from './keys/bindings-context.js';
import type {CommandEnvironment} from './keys/actions.js';
import {useKeys} from './keys/use-keys.js';
import {ScrollTargetContext, useScrollTarget, type ScrollTarget} from './hooks/use-scroll-window.js';
import {MouseOnProvider, useMouseOn} from './mouse/mouse-on.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import {formatKey} from './keys/key-descriptor.js';
import type {Bindings} from './keys/keys.js';
import {focusColumns, panesOffScreen, planFrame, zoomVisibleLines, type FramePlan} from './layout.js';
import {StoreProvider, useBatch} from './store-context.js';
import {redrawScreen} from './terminal/diff-writer.js';
import {ThemeProvider, useTheme} from './theme/theme.js';

export type AppProps = {
	readonly store: BatchStore;
	readonly theme: Theme;
	readonly bindings: Bindings;
	/** Fix the size instead of following the terminal (tests). */
	readonly columns?: number | undefined;
	readonly rows?: number | undefined;
	/** The terminal reports the mouse (commands/mount-dashboard.tsx turned it on). */
	readonly mouse?: boolean | undefined;
};

export function App({store, theme, bindings, columns, rows, mouse = false}: AppProps) {
	// The scrolled overlay on screen (help, spend), which the key handler hands scroll commands to.
	const scrollTarget = useRef<ScrollTarget['current']>(null);
	return (
		<StoreProvider store={store}>
			<ThemeProvider theme={theme}>
				<BindingsProvider bindings={bindings}>
					<MouseOnProvider value={mouse}>
						<ScrollTargetContext.Provider value={scrollTarget}>
							<Dashboard columns={columns} rows={rows}/>
						</ScrollTargetContext.Provider>
					</MouseOnProvider>
				</BindingsProvider>
			</ThemeProvider>
		</StoreProvider>
	);
}

function Dashboard({columns, rows}: {readonly columns: number | undefined; readonly rows: number | undefined}) {
	const bindings = useBindings();
	const scrollTarget = useScrollTarget();
	const {stdout} = useStdout();
	const size = useTerminalSize({columns, rows});
	const ui = useBatch(useShallow(state => ({
		taskCount: shownOrder(state).length,
		allTasks: state.order.length,
		layout: state.layout,
		warnings: state.warnings.length > 0,
		fleet: state.fleet !== null,
		statusLine: state.quitting || state.notice !== null,
		body: bodyLayer(state.overlay)?.kind ?? null,
		focused: shownOrder(state).indexOf(state.focusedId ?? ''),
	})));
	const question = useBatch(confirmQuestion);
	// The bar's lines as the bar counts them, its third answer included.
	const detachable = useBatch(confirmDetachable);
	const confirmLines = confirmText(question, size.columns, bindings, detachable).length;
	const frame = planFrame({...size, taskCount: ui.taskCount, preference: ui.layout, warnings: ui.warnings, fleet: ui.fleet, statusLine: ui.statusLine, confirm: confirmLines});
	const body = frame.tooSmall ? undefined : frame.body;
	const environment: CommandEnvironment = {
		focusColumns: focusColumns(body),
		zoomLines: frame.tooSmall ? 1 : zoomVisibleLines(frame.bodyHeight),
		zoomColumns: frame.columns,
		effectiveLayout: body?.kind ?? 'list',
		scrollOverlay: command => scrollTarget.current?.(command),
		redraw: () => redrawScreen(stdout),
	};
	useKeys(bindings, environment, useMouseOn() ? {...environment, frame} : undefined);

	if (frame.tooSmall) {
		return question === null
			? <TooSmall columns={frame.columns} quitKey={formatKey(bindings.get('app.quit')?.[0] ?? 'q')}/>
			// Even with no room for the dashboard, a pending question must be answerable.
			: <Box height={Math.max(1, size.rows - 1)} overflow='hidden'><ConfirmBar width={frame.columns}/></Box>;
	}

	return (
		<Box flexDirection='column' width={frame.columns}>
			<Header width={frame.columns}/>
			<Box height={frame.bodyHeight} width={frame.columns} overflow='hidden'>
				<Body frame={frame} body={ui.body} empty={ui.allTasks === 0} noneShown={ui.taskCount === 0}/>
			</Box>
			{question !== null && <ConfirmBar width={frame.columns}/>}
			<Footer width={frame.columns} offScreen={(ui.body === null || ui.body === 'filter') && frame.body.kind === 'grid' ? panesOffScreen(frame.body, ui.taskCount, ui.focused) : 0}/>
		</Box>
	);
}

type BodyProps = {
	readonly frame: Extract<FramePlan, {tooSmall: false}>;
	/** What covers the grid in the body (a question's bar is below it). */
	readonly body: BodyLayer['kind'] | null;
	readonly empty: boolean;
	/** Every task is hidden by the filters (/, f). */
	readonly noneShown: boolean;
};

function Body({frame, body, empty, noneShown}: BodyProps) {
	const theme = useTheme();
	if (body === 'help') {
		return <HelpOverlay width={frame.columns} height={frame.bodyHeight}/>;
	}

	if (body === 'spend') {
		return <SpendOverlay width={frame.columns} height={frame.bodyHeight}/>;
	}

	if (body === 'routes' || body === 'pick') {
		return <RoutesEditor width={frame.columns} height={frame.bodyHeight}/>;
	}

	if (body === 'zoom') {
		return <ZoomView width={frame.columns} height={frame.bodyHeight}/>;
	}

	if (empty) {
		return <Text color={theme.colors.text.muted}>This batch has no tasks.</Text>;
	}

	if (noneShown) {
		return <Text color={theme.colors.text.muted}>No task matches the filter (Esc clears the text filter, f changes the status filter).</Text>;
	}

	return frame.body.kind === 'grid' ? <GridLayout plan={frame.body}/> : <ListLayout plan={frame.body}/>;
}

function TooSmall({columns, quitKey}: {readonly columns: number; readonly quitKey: string}) {
	const theme = useTheme();
	return (
		<Box width={Math.max(1, columns)} height={1} overflow='hidden'>
			<Text wrap='truncate-end' color={theme.colors.text.warning}>{`hermes-delegate: terminal too small for the dashboard; enlarge it · ${quitKey} quits`}</Text>
		</Box>
	);
}
