// The dashboard's store over the socket: its replies come later, and they still land — the zoom
// shows the task's scrollback and follows it, a cancel confirmed in one dashboard stops the task
// in every dashboard, and the same cancel in another dashboard says there is nothing to cancel; a
// cancel shows at once in the dashboard that confirmed it, and is taken back if the host refuses it.
import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {zoomOf} from '../../src/state/overlay.js';
import type {BatchStore} from '../../src/state/store-types.js';
import {hostTestsAfterEach} from '../helpers/hosted-batch.js';
import {waitFor} from '../helpers/wait-for.js';

const {host, attachStore} = hostTestsAfterEach();

async function dashboard(batch: {socketPath: string}): Promise<BatchStore> {
	return (await attachStore(batch, 'dashboard')).store;
}

describe('a dashboard attached over the socket', () => {
	it('zooms into a task: the scrollback arrives and follows the output to its end', async () => {
		const batch = await host(['[fake:lines=100000] flood']);
		const store = await dashboard(batch);
		const finished = batch.runner.start();
		await waitFor(() => (store.getState().tasks['t01']?.totalLines ?? 0) > 0, {message: "output in t01's pane"});
		store.getState().openZoom(10);
		expect(zoomOf(store.getState().overlay)?.taskId).toBe('t01');
		await finished;
		const kept = (await batch.control.readOutput({id: 't01'}))!;
		await waitFor(() => zoomOf(store.getState().overlay)?.totalLines === kept.totalLines, {message: 'the zoom to reach the end of the output'});
		expect(zoomOf(store.getState().overlay)?.scrollback).toEqual(kept.lines);
	});

	it('a cancel confirmed in one dashboard stops the task in both; the same cancel in the other finds nothing to cancel', async () => {
		const batch = await host(['[fake:forever] [fake:ready] runaway', '[fake:forever] [fake:ready] other']);
		const first = await dashboard(batch);
		const second = await dashboard(batch);
		void batch.runner.start();
		await waitFor(() => first.getState().tasks['t01']?.status === 'running' && second.getState().tasks['t01']?.status === 'running', {message: 't01 running in both'});
		// Both ask; one confirms first.
		first.getState().requestCancel(false);
		second.getState().requestCancel(false);
		first.getState().confirmYes();
		await waitFor(() => second.getState().tasks['t01']?.status === 'cancelled', {message: 't01 cancelled, in the dashboard that did not confirm'});
		second.getState().confirmYes();
		await waitFor(() => second.getState().notice !== null, {message: "the second dashboard's notice"});
		expect(second.getState().notice).toBe('nothing to cancel: the task has already finished');
		expect(first.getState().tasks['t01']?.status).toBe('cancelled');
		expect(batch.events.filter(event => event.type === 'task.cancelling')).toHaveLength(1);
		expect(batch.runner.status('t02')).toBe('running');
	});

	it('a cancel shows in the store the moment y is confirmed, and the host then confirms it with its countdown', async () => {
		const batch = await host(['[fake:forever] [fake:ready] runaway', '[fake:forever] [fake:ready] other']);
		const store = await dashboard(batch);
		void batch.runner.start();
		await waitFor(() => store.getState().tasks['t01']?.status === 'running', {message: 't01 running'});
		store.getState().requestCancel(false);
		store.getState().confirmYes();
		// Before anything crossed the socket back: cancelling on this dashboard's word.
		expect(store.getState().tasks['t01']).toMatchObject({status: 'cancelling', cancelling: null});
		await waitFor(() => store.getState().tasks['t01']?.cancelling !== null, {message: "the host's task.cancelling in the store"});
		expect(batch.events.some(event => event.type === 'task.cancelling' && event.id === 't01')).toBe(true);
		await waitFor(() => store.getState().tasks['t01']?.status === 'cancelled', {message: 't01 cancelled'});
		expect(store.getState().notice).toBeNull();
	});

	it('a cancel the host refuses is taken back: the task shows running again, with the reason', async () => {
		const batch = await host(['[fake:forever] [fake:ready] runaway']);
		const store = await dashboard(batch);
		void batch.runner.start();
		await waitFor(() => store.getState().tasks['t01']?.status === 'running', {message: 't01 running'});
		// The host's answer when the task ended before the request reached it (a race no test can
		// time): false, with nothing stopped.
		batch.control.cancel = async () => false;
		store.getState().requestCancel(false);
		store.getState().confirmYes();
		expect(store.getState().tasks['t01']?.status).toBe('cancelling');
		await waitFor(() => store.getState().notice !== null, {message: "the host's answer"});
		expect(store.getState().notice).toBe('nothing to cancel: the task has already finished');
		expect(store.getState().tasks['t01']?.status).toBe('running');
		expect(batch.runner.status('t01')).toBe('running');
	});

	it('steers: a mode switch confirmed in one dashboard is saved, and both dashboards show the new mode', async () => {
		const batch = await host(['[fake:forever] [fake:ready] keeps the slot', 'summaries of the logs'], {steered: true, concurrency: 1});
		const first = await dashboard(batch);
		const second = await dashboard(batch);
		expect(first.getState().canSteer).toBe(true);
		void batch.runner.start();
		await waitFor(() => first.getState().tasks['t01']?.status === 'running', {message: 't01 running'});
		first.getState().requestSwitchMode();
		expect(first.getState().overlay).toMatchObject({kind: 'confirm', question: {action: 'switch-mode', mode: 'profile_routes'}});
		first.getState().confirmYes();
		await waitFor(() => first.getState().mode === 'profile_routes', {message: 'the new mode in the dashboard that switched'});
		expect(first.getState().notice).toMatch(/^mode profile_routes: /);
		await waitFor(() => second.getState().mode === 'profile_routes', {message: 'the new mode in the other dashboard'});
		expect(batch.events.filter(event => event.type === 'batch.replanned')).toHaveLength(1);
	});

	it('edits a route in the routes editor over the socket: saved, and the editor shows the file as it now is', async () => {
		const batch = await host(['[fake:forever] [fake:ready] keeps the slot'], {steered: true, concurrency: 1});
		const store = await dashboard(batch);
		store.getState().openRoutes();
		store.getState().moveRoute(1);
		store.getState().setDefaultRoute();
		await waitFor(() => store.getState().notice !== null, {message: 'the answer to the edit'});
		expect(store.getState().overlay).toMatchObject({kind: 'routes', editor: {routes: [{name: 'fast', isDefault: false}, {name: 'deep', isDefault: true}]}});
		expect(readFileSync(batch.configPath!, 'utf8')).toMatch(/default: deep/);
	});
});
