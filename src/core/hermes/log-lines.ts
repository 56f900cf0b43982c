// A finished task's log read back as its pane showed it: the same TaskOutput the runner fills
// while the task runs, fed from the log file instead of the pipe, so a finished run's panes, zoom
// and search (`attach` on a finished run) read exactly as the live ones did. A log written with
// `--format stream-json` starts with its `system` event and is decoded as the pane decodes it
// (tool lines, the reply's text); any other log is shown as it is, sanitised.
import {TaskOutput} from '../output/task-output.js';
import {readRegularFile} from '../regular-file.js';
import {StreamJsonDecoder} from './stream-json/decoder.js';
import {withoutSessionLine} from './output.js';

/** Bytes fed at a time: the output's own pacing keeps only the newest lines of a long log decoded. */
const chunkBytes = 1024 * 1024;

/**
 * The log's output, ended; undefined when there is no log (the task never started). The whole
 * log is read: logs are bounded by delegate.yaml's log limit, and the output keeps `maxLines`.
 */
export function loggedOutput(file: string, options: {maxLines?: number} = {}): TaskOutput | undefined {
	let bytes: Buffer;
	try {
		bytes = readRegularFile(file);
	} catch {
		return undefined;
	}

	const firstLine = bytes.subarray(0, Math.max(0, bytes.indexOf(0x0a)) || bytes.length);
	const streamJson = isSystemEvent(firstLine);
	const output = new TaskOutput({maxLines: options.maxLines, decoder: streamJson ? new StreamJsonDecoder() : undefined});
	for (let start = 0; start < bytes.length; start += chunkBytes) {
		// The session line Hermes prints last on stderr is no news in a pane (as live: task-run.ts).
		output.pushStdout(withoutSessionLine(bytes.subarray(start, start + chunkBytes)));
	}

	output.end();
	return output;
}

function isSystemEvent(line: Buffer): boolean {
	try {
		const event = JSON.parse(line.toString('utf8')) as unknown;
		return event !== null && typeof event === 'object' && (event as {type?: unknown}).type === 'system';
	} catch {
		return false;
	}
}
