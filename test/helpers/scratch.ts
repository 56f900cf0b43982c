// What a test file leaves behind, cleaned after each test: the temporary folders it made and the
// process groups its runners started (SIGKILL: a failed test must not leave runaways behind for
// the next one).
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach} from 'vitest';
import {signalGroup} from '../../src/core/process/group.js';
import type {BatchEvent} from '../../src/core/types.js';

export type Scratch = {
	/** A new temporary folder, removed after the test. */
	folder(prefix: string): string;
	/** Feed it a runner's events: every group a task started is killed after the test. */
	track(event: BatchEvent): void;
};

/** Call at the top level of a test file: registers the afterEach that cleans up. */
export function scratchAfterEach(): Scratch {
	const folders: string[] = [];
	const groups = new Set<number>();
	afterEach(() => {
		for (const pgid of groups) signalGroup(pgid, 'SIGKILL');
		groups.clear();
		for (const folder of folders.splice(0)) rmSync(folder, {recursive: true, force: true});
	});
	return {
		folder(prefix) {
			const folder = mkdtempSync(path.join(tmpdir(), prefix));
			folders.push(folder);
			return folder;
		},
		track(event) {
			if (event.type === 'task.started') groups.add(event.pid);
		},
	};
}
