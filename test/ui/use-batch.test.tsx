// useBatch reads the store through one function for a component's whole life (the latest
// render's selector): a selector that depends on props must still follow them, also for store
// changes after the props changed, and a render whose value did not change must not run the
// selector again after the commit (useSyncExternalStore does so for a new getSnapshot).
import {Text} from 'ink';
import {render as inkRender} from 'ink-testing-library';
import {expect, it} from 'vitest';
import {createBatchStore} from '../../src/state/store.js';
import {StoreProvider, useBatch} from '../../src/ui/store-context.js';
import {FakeControl, plannedTasks, startTask, t0} from '../helpers/render.js';

/** How often the selector ran, and how often it had when the component last rendered. */
type Calls = {count: number; atRender: number};

function Status({id, calls}: {readonly id: string; readonly calls: Calls}) {
	const status = useBatch(state => {
		calls.count++;
		return `${id} ${state.tasks[id]?.status ?? 'none'}`;
	});
	calls.atRender = calls.count;
	return <Text>{status}</Text>;
}

function setup() {
	const control = new FakeControl();
	const store = createBatchStore({control, plan: {mode: 'model_map', tasks: plannedTasks(2), warnings: []}, runId: 'run-test', runDir: '/tmp/run-test', concurrency: 2, graceMs: 5000, now: t0});
	const calls: Calls = {count: 0, atRender: 0};
	const view = (id: string) => (
		<StoreProvider store={store}>
			<Status id={id} calls={calls}/>
		</StoreProvider>
	);
	return {store, calls, view};
}

/** After the commit's passive effects, which React's scheduler runs in a setImmediate of their own. */
const settled = async () => {
	await new Promise(resolve => {
		setImmediate(resolve);
	});
	await new Promise(resolve => {
		setTimeout(resolve, 0);
	});
};

it('follows a selector that depends on props, for the store changes after the props changed too', async () => {
	const {store, view} = setup();
	const app = inkRender(view('t01'));
	expect(app.lastFrame()).toBe('t01 queued');
	app.rerender(view('t02'));
	expect(app.lastFrame()).toBe('t02 queued');
	startTask(store, 't02', t0 + 1000);
	await settled();
	expect(app.lastFrame()).toBe('t02 running');
	app.unmount();
});

it('does not run the selector again after a re-render that changes nothing it selects', async () => {
	const {calls, view} = setup();
	const app = inkRender(view('t01'));
	await settled();
	const before = calls.count;
	app.rerender(view('t01'));
	await settled();
	// The render read the store (React's development build reads it twice); nothing after it did.
	expect(calls.atRender).toBeGreaterThan(before);
	expect(calls.count).toBe(calls.atRender);
	expect(app.lastFrame()).toBe('t01 queued');
	app.unmount();
});
