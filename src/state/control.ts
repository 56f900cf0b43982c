// The runner, seen through the narrow BatchControl interface the store is allowed to use.
import type {BatchRunner} from '../core/run/runner.js';
import type {BatchSteering} from '../core/config/steering.js';
import {terminalSafe} from '../core/output/visible-text.js';
import type {BatchControl} from './store-types.js';

/** `steering`: the batch's config, through which route changes are saved and re-planned. */
export function runnerControl(runner: BatchRunner, steering?: BatchSteering): BatchControl {
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
		output(id) {
			const output = runner.output(id);
			if (!output) {
				return undefined;
			}

			return {
				version: output.version,
				lines: count => output.display.lines(count),
				totalLines: output.display.totalLines,
				errorLine: () => output.errorLine(),
			};
		},
	};
}
