// The history a newly attached client replays: whole-snapshot events (telemetry, live spend) keep
// only their newest per task, everything else is kept, and seq counts every event with no gaps.
import {describe, expect, it} from 'vitest';
import {EventHistory} from '../../src/host/history.js';
import {unknownSpend} from '../../src/core/hermes/state-db/sessions.js';
import type {BatchEvent} from '../../src/core/types.js';

const spend = (tool_calls: number): BatchEvent => ({type: 'task.spend', id: 't01', attempt: 1, spend: {...unknownSpend, tool_calls}, at: tool_calls});
const telemetry = (id: string, tool_calls: number): BatchEvent => ({type: 'task.telemetry', id, telemetry: {model_used: null, session_id: null, tokens: null, cost_usd: null, tool_calls}, at: tool_calls});

describe('EventHistory', () => {
	it('keeps only the newest spend and telemetry snapshot of each task, apart from each other', () => {
		const history = new EventHistory();
		history.add({type: 'task.started', id: 't01', pid: 1, argv: [], at: 0});
		history.add(spend(1));
		history.add(telemetry('t01', 1));
		history.add(spend(2));
		history.add(telemetry('t02', 5));
		history.add(telemetry('t01', 3));

		expect(history.seq).toBe(6);
		expect(history.events().map(({seq, event}) => [seq, event.type, 'id' in event ? event.id : ''])).toEqual([
			[1, 'task.started', 't01'],
			[4, 'task.spend', 't01'],
			[5, 'task.telemetry', 't02'],
			[6, 'task.telemetry', 't01'],
		]);
	});
});
