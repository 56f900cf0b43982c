// The runner, seen through the narrow BatchControl interface a client may use: the answers the
// runner host (server.ts) sends back over the socket. What leaves it is plain data (replies), as
// the socket carries it; the panes are pushed, not asked for (pane-ledger.ts).
import type {BatchRunner} from '../core/run/runner.js';
import type {BatchSteering} from '../core/config/steering.js';
import type {TaskOutput} from '../core/output/task-output.js';
import {lineMatches, searchPattern, terminalSafe} from '../core/output/visible-text.js';
import type {BatchControl, OutputRange, OutputSearch} from '../wire/port.js';

/** `steering`: the batch's config, through which route changes are saved and re-planned. */
export function runnerControl(runner: BatchRunner, steering?: BatchSteering): BatchControl {
	return {
		...(steering ? {
			routing: () => steering.delegation,
			profiles: () => steering.unroutedProfiles(),
			reload: async () => steering.reload(),
			steer: async edits => steering.edit(edits),
			async reroute(id, target) {
				const outcome = runner.retryTask(id, steering.delegation, target);
				const provider = typeof target === 'string' ? '' : target.provider?.trim() ?? '';
				const where = typeof target === 'string' ? `on route "${terminalSafe(target)}"` : `with explicit model "${terminalSafe(target.model.trim())}"${provider === '' ? '' : ` on provider "${terminalSafe(provider)}"`}`;
				return outcome.ok
					? {ok: true, message: `${id} queued ${where}${outcome.attempt > 1 ? ` as attempt ${outcome.attempt}; the earlier attempt's log and result are kept` : ''}`}
					: {ok: false, message: terminalSafe(outcome.reason)};
			},
		} : {}),
		cancel: async (id, options) => runner.cancel(id, options),
		shutdown: async options => runner.shutdown(options),
		...outputControl(id => runner.output(id)),
	};
}

export type OutputControl = Pick<BatchControl, 'readOutput' | 'searchOutput'>;

/** The output half of the control over any set of TaskOutputs: the runner's, or a test's own. */
export function outputControl(outputOf: (id: string) => TaskOutput | undefined): OutputControl {
	return {
		async readOutput({id, last}) {
			const output = outputOf(id);
			return output && rangeOf(id, output, last);
		},
		async searchOutput(request) {
			const output = outputOf(request.id);
			return {line: output ? nextMatch(rangeOf(request.id, output, undefined), request) : null};
		},
	};
}

function rangeOf(id: string, output: TaskOutput, last: number | undefined): OutputRange {
	const {display, version} = output;
	const lines = display.lines(last);
	// Unfinished lines come last and are not counted in totalLines yet: they are numbered after it.
	const unfinished = [output.stdout.partialLine(), output.stderr.partialLine()].filter(line => line !== '').length;
	return {id, version, totalLines: display.totalLines, first: display.totalLines + unfinished - lines.length, lines};
}

/** The absolute line of the next match in a range of kept lines, or null: what searchOutput replies (fakes reuse it). */
export function nextMatch(range: Pick<OutputRange, 'first' | 'lines'>, {query, from, direction}: OutputSearch): number | null {
	const pattern = searchPattern(query);
	const {lines, first} = range;
	// A start outside the kept lines (they moved on since the zoom's copy) searches from their edge.
	const start = from === null ? (direction === -1 ? lines.length : -1) : Math.min(lines.length, Math.max(-1, from - first));
	for (let index = start + direction; index >= 0 && index < lines.length; index += direction) {
		// The text as shown, as the zoom marks it: what is marked is what n/N finds.
		if (lineMatches(lines[index]!, pattern)) {
			return first + index;
		}
	}

	return null;
}
