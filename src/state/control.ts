// The runner, seen through the narrow BatchControl interface the store is allowed to use. The
// runner's TaskOutput is read here only: what leaves is plain data, as it would over a socket.
// (A minimal in-process version for the host protocol's tests; seam 1 of issue 23 owns the real one.)
import type {BatchRunner} from '../core/run/runner.js';
import type {BatchSteering} from '../core/config/steering.js';
import {lineMatches, searchPattern, terminalSafe} from '../core/output/visible-text.js';
import type {BatchControl, OutputRange, OutputSnapshot} from './store-types.js';

/** `steering`: the batch's config, through which route changes are saved and re-planned. */
export function runnerControl(runner: BatchRunner, steering?: BatchSteering): BatchControl {
	const range = (id: string, last?: number): OutputRange | undefined => {
		const output = runner.output(id);
		if (!output) {
			return undefined;
		}

		const lines = output.display.lines(last);
		// An unfinished last line is counted as the line after the complete ones.
		return {id, version: output.version, totalLines: output.display.totalLines, first: Math.max(0, output.display.totalLines - lines.length), lines};
	};

	return {
		...(steering ? {
			routing: () => steering.delegation,
			profiles: () => steering.unroutedProfiles(),
			reload: () => steering.reload(),
			steer: edits => steering.edit(edits),
			reroute(id, target) {
				const outcome = runner.retryTask(id, steering.delegation, target);
				const provider = typeof target === 'string' ? '' : target.provider?.trim() ?? '';
				const where = typeof target === 'string' ? `on route "${terminalSafe(target)}"` : `with explicit model "${terminalSafe(target.model.trim())}"${provider === '' ? '' : ` on provider "${terminalSafe(provider)}"`}`;
				return outcome.ok
					? {ok: true, message: `${id} queued ${where}${outcome.attempt > 1 ? ` as attempt ${outcome.attempt}; the earlier attempt's log and result are kept` : ''}`}
					: {ok: false, message: terminalSafe(outcome.reason)};
			},
		} : {}),
		cancel: (id, options) => runner.cancel(id, options),
		shutdown: options => runner.shutdown(options),
		outputChanges(versions, tailLines) {
			const changes: Record<string, OutputSnapshot> = {};
			for (const {id} of runner.plan.tasks) {
				const output = runner.output(id);
				if (output && output.version !== versions[id]) {
					changes[id] = {version: output.version, totalLines: output.display.totalLines, tail: output.display.lines(tailLines), errorLine: output.errorLine() ?? null};
				}
			}

			return changes;
		},
		readOutput: ({id, last}) => range(id, last),
		searchOutput({id, query, from, direction}) {
			const kept = range(id);
			if (!kept) {
				return {line: null};
			}

			const pattern = searchPattern(query);
			const start = from === null ? (direction === 1 ? -1 : kept.lines.length) : from - kept.first;
			for (let index = start + direction; index >= 0 && index < kept.lines.length; index += direction) {
				if (lineMatches(kept.lines[index]!, pattern)) {
					return {line: kept.first + index};
				}
			}

			return {line: null};
		},
	};
}
