// host.json follows the batch: after a burst of changes it holds the newest status, and the burst
// is written once the write under way is done, not once per change (each write is a whole atomic
// file: ~1.5 ms of CPU). Real files; the writes are counted with the folder's inotify events,
// which arrive in order: a marker file written after the last one says when all have come.
import {mkdtempSync, readFileSync, rmSync, watch, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {HostStatusFile} from '../../src/host/status.js';
import {hostStatusPath, readHostStatus} from '../../src/wire/host-json.js';

const folders: string[] = [];
afterEach(() => {
	for (const folder of folders.splice(0)) rmSync(folder, {recursive: true, force: true});
});

describe('HostStatusFile', () => {
	it('writes a burst of sixteen starts as one more write, and ends with the newest status', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'hd-host-status-'));
		folders.push(dir);
		const ids = Array.from({length: 16}, (_, index) => `t${String(index + 1).padStart(2, '0')}`);
		let writes = 0;
		let markerSeen: () => void = () => undefined;
		const marker = new Promise<void>(resolve => {
			markerSeen = resolve;
		});
		// write-file-atomic renames its temporary file onto host.json: one rename event per write.
		const watcher = watch(dir, (type, name) => {
			if (type === 'rename' && name === 'host.json') writes++;
			if (name === 'marker') markerSeen();
		});
		try {
			const status = new HostStatusFile(dir, path.join(dir, 'host.sock'), ids.map(id => ({id, refused: false})));
			for (const id of ids) status.onEvent({type: 'task.started', id, pid: 1000, argv: [], at: 0});
			status.setClients(1);
			await status.flushed();
			writeFileSync(path.join(dir, 'marker'), '');
			await marker;
		} finally {
			watcher.close();
		}

		// The first status, then everything that changed while it was written.
		expect(writes).toBe(2);
		expect(readHostStatus(dir)).toMatchObject({clients: 1, tasks: {running: 16}, finished: false});
	});

	it('writes each change that comes after the last write is done', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'hd-host-status-'));
		folders.push(dir);
		const status = new HostStatusFile(dir, path.join(dir, 'host.sock'), [{id: 't01', refused: false}]);
		await status.flushed();
		expect(readHostStatus(dir)?.tasks).toEqual({queued: 1});
		status.onEvent({type: 'task.started', id: 't01', pid: 1000, argv: [], at: 0});
		await status.flushed();
		expect(readHostStatus(dir)?.tasks).toEqual({running: 1});
		status.onEvent({type: 'batch.reopened', at: 1});
		status.setClients(2);
		await status.flushed();
		expect(JSON.parse(readFileSync(hostStatusPath(dir), 'utf8'))).toMatchObject({clients: 2, tasks: {running: 1}});
	});
});
