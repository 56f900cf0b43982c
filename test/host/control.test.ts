// Control over the socket: a request from any client applies once, and every client sees its
// effect through the events; output is read and searched by messages, never through the runner.
import {describe, expect, it} from 'vitest';
import {hostTestsAfterEach} from '../helpers/hosted-batch.js';
import {waitFor} from '../helpers/wait-for.js';

const {host, connect} = hostTestsAfterEach();

const runaway = '[fake:forever] [fake:ready]';

describe('control from two clients', () => {
	it('a cancel from one client is seen by the other; a second cancel of the task is no second cancel', async () => {
		const batch = await host([runaway, runaway]);
		const first = await connect(batch);
		const second = await connect(batch);
		void batch.runner.start();
		await waitFor(() => second.events.some(event => event.type === 'task.started' && event.id === 't01'), {message: 't01 started, as the second client sees it'});
		await waitFor(() => batch.runner.output('t01')?.stdout.lines().includes('READY') ?? false, {message: 'READY from t01'});

		const replies = await Promise.all([first.connection.control.cancel('t01', {skipGrace: false}), second.connection.control.cancel('t01', {skipGrace: false})]);
		expect(replies.toSorted()).toEqual([false, true]);
		await waitFor(() => second.events.some(event => event.type === 'task.finished' && event.id === 't01'), {message: "t01's end, seen by the client that did not cancel it"});
		const finished = second.events.find(event => event.type === 'task.finished' && event.id === 't01');
		expect(finished?.type === 'task.finished' && finished.result.status).toBe('cancelled');
		expect(batch.events.filter(event => event.type === 'task.cancelling' && event.id === 't01')).toHaveLength(1);
		expect(first.events.filter(event => event.type === 'task.cancelling' && event.id === 't01')).toHaveLength(1);
		// Cancelling a task that has ended: the reply says nothing was cancelled.
		expect(await second.connection.control.cancel('t01', {skipGrace: true})).toBe(false);
		expect(batch.runner.status('t02')).toBe('running');
	});

	it('shutdown from a client cascades every task, and both clients see the batch finish', async () => {
		const batch = await host([runaway, runaway, '[fake:duration=30]']);
		const first = await connect(batch);
		const second = await connect(batch);
		const report = batch.runner.start();
		await waitFor(() => first.events.filter(event => event.type === 'task.started').length === 3, {message: 'three tasks started'});
		await first.connection.control.shutdown({skipGrace: true});
		expect((await report).results.map(result => result.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
		await waitFor(() => second.events.some(event => event.type === 'batch.finished'), {message: 'batch.finished at the second client'});
	});

	it('a batch started without its config refuses steering with the reason', async () => {
		const batch = await host(['[fake:duration=0.1]']);
		const {connection} = await connect(batch);
		expect(connection.control.steer).toBeUndefined();
		expect(connection.snapshot.canSteer).toBe(false);
	});
});

describe('output over the socket', () => {
	it('reads the last lines of a task and searches them, by absolute line numbers', async () => {
		const batch = await host(['[fake:lines=300] lines']);
		const {connection, events} = await connect(batch);
		await batch.runner.start();
		await waitFor(() => events.some(event => event.type === 'batch.finished'), {message: 'batch.finished'});
		const local = await batch.control.readOutput({id: 't01'});
		const all = await connection.control.readOutput({id: 't01'});
		expect(all).toEqual(local);
		expect(all!.lines.length).toBeGreaterThanOrEqual(300);
		const last = await connection.control.readOutput({id: 't01', last: 5});
		expect(last?.lines).toEqual(all!.lines.slice(-5));
		expect(last?.first).toBe(all!.first + all!.lines.length - 5);

		const needle = all!.lines.findIndex(line => line.includes('line 00000150'));
		expect(needle).toBeGreaterThan(-1);
		const forward = await connection.control.searchOutput({id: 't01', query: 'LINE 00000150', from: null, direction: 1});
		expect(forward).toEqual({line: all!.first + needle});
		expect(await connection.control.searchOutput({id: 't01', query: 'line 00000', from: all!.first + needle, direction: 1})).toEqual(await batch.control.searchOutput({id: 't01', query: 'line 00000', from: all!.first + needle, direction: 1}));
		expect(await connection.control.searchOutput({id: 't01', query: 'no such text anywhere', from: null, direction: -1})).toEqual({line: null});
		expect(await connection.control.readOutput({id: 'nope'})).toBeUndefined();
	});
});
