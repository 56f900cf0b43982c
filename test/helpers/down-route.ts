// A `hermes` whose one model's provider is down: launched with that model it fails as Hermes does
// under -Q (the error on stdout, exit 1); launched with any other it is the fake agent. So a task
// fails on one route and succeeds once it is re-routed, whatever its prompt says.
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {shellQuote} from './tmux.js';
import {fakeAgentPath} from './processes.js';

/** Writes the script into `folder` and returns its path, for --hermes-bin or a runner's hermesBin. */
export function agentWithModelDown(folder: string, model: string): string {
	const file = path.join(folder, 'hermes-with-a-model-down');
	writeFileSync(file, [
		'#!/bin/sh',
		'for arg in "$@"; do',
		`\tif [ "$arg" = ${shellQuote(model)} ]; then echo "API call failed after 3 retries: HTTP 503: ${model} is down"; exit 1; fi`,
		'done',
		`exec ${shellQuote(fakeAgentPath)} "$@"`,
		'',
	].join('\n'), {mode: 0o755});
	return file;
}
