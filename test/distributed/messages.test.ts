// The messages of the distributed path: what parses, what is refused, and that credentials never travel.
import {describe, expect, it} from 'vitest';
import {encodeMessage, messageVersion, offerOf, offerSchema, parseMessage, reportSchema} from '../../src/distributed/messages.js';
import {attemptSubjects, batchStream, offerSubject, reportOf} from '../../src/distributed/subjects.js';
import type {PlannedTask} from '../../src/core/types.js';

const task: PlannedTask = {
	index: 0,
	id: 't01',
	spec: {goal: 'say hi'},
	decision: {route: {kind: 'model', name: 'fast', description: 'quick', model: 'm1', provider: 'p', api_key: 'sk-secret'}, refused: false, reason: 'named'},
	effective: {model: 'm1', provider: 'p', reasoning_effort: null, service_tier: null, profile: null},
	launch: {max_turns: null, prompt_file: false, base_url: null},
	warnings: [],
};

describe('distributed messages', () => {
	it('an offer carries the planned task without the route\'s api_key, and parses back', () => {
		const offer = offerOf('20261202-130000-abc123', task, 1, {graceMs: 1000, logLimitBytes: 0});
		const bytes = encodeMessage(offer);
		expect(new TextDecoder().decode(bytes)).not.toContain('sk-secret');
		const parsed = parseMessage(offerSchema, bytes);
		expect(parsed.ok && parsed.value.task.decision.route).toEqual({kind: 'model', name: 'fast', description: 'quick', model: 'm1', provider: 'p'});
	});

	it('an offer that still carries a key, or has a field no version knows, is refused', () => {
		const offer = offerOf('b1', task, 1, {graceMs: 1000, logLimitBytes: 0});
		const withKey = {...offer, task: {...offer.task, decision: {...offer.task.decision, route: {...offer.task.decision.route, api_key: 'sk'}}}};
		expect(parseMessage(offerSchema, encodeMessage(withKey)).ok).toBe(false);
		expect(parseMessage(offerSchema, encodeMessage({...offer, extra: 1})).ok).toBe(false);
	});

	it('bytes that are not JSON, not UTF-8, or of another kind are refused with a reason', () => {
		const notJson = parseMessage(reportSchema, new TextEncoder().encode('{oops'));
		expect(notJson).toMatchObject({ok: false, why: expect.stringContaining('not JSON')});
		expect(parseMessage(reportSchema, Uint8Array.from([0xff, 0xfe])).ok).toBe(false);
		const base = {v: messageVersion, seq: 0, worker: 'wa'};
		expect(parseMessage(reportSchema, encodeMessage({...base, kind: 'exploded', at: 1})).ok).toBe(false);
		expect(parseMessage(reportSchema, encodeMessage({...base, kind: 'output', stream: 'stdout', data: 'not base64!'})).ok).toBe(false);
		expect(parseMessage(reportSchema, encodeMessage({...base, kind: 'output', stream: 'stdout', data: Buffer.from('hi').toString('base64')})).ok).toBe(true);
		// A report of the previous version is refused, not misread.
		expect(parseMessage(reportSchema, encodeMessage({...base, v: 1, kind: 'killed', at: 1})).ok).toBe(false);
	});

	it('subjects are namespaced per batch and refuse tokens that would widen them', () => {
		expect(offerSubject('b1')).toBe('hd.b1.offer');
		expect(attemptSubjects('b1', 't01', 2)).toEqual({claim: 'hd.b1.task.t01.2.claim', cancel: 'hd.b1.task.t01.2.cancel', report: 'hd.b1.report.t01.2'});
		expect(batchStream('b1')).toEqual({name: 'HD_BATCH_b1', subjects: 'hd.b1.report.>', bodies: 'hd.b1.body.>'});
		expect(reportOf('b1', 'hd.b1.report.t01.2')).toEqual({taskId: 't01', attempt: 2});
		for (const foreign of ['hd.b2.report.t01.2', 'hd.b1.report.t01.2.x', 'hd.b1.report.t01.0', 'hd.b1.task.t01.2.claim']) expect(reportOf('b1', foreign)).toBeUndefined();
		for (const bad of ['*', '>', 'a.b', '', 'a b']) expect(() => offerSubject(bad)).toThrow(/subject token/);
	});
});
