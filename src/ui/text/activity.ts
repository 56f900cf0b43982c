// How long a running task has been quiet, in its pane: the time since its last output
// and since its last tool activity, so slow work (still printing or calling tools) is told from a
// task that does neither, before the stuck mark comes. Both times are the runner's (the output
// snapshot's and the events'); only `now` is this dashboard's, and it is passed in, never stored.
import {formatElapsed} from '../../core/text/durations.js';

type Quiet = {status: string; startedAt: number | null; lastOutputAt: number | null; lastToolAt: number | null};

/** A time of this attempt: one before its start belongs to an earlier attempt. */
function since(at: number | null, startedAt: number, now: number): string | null {
	return at === null || at < startedAt ? null : formatElapsed(now - at);
}

/** The longest form that fits `width`; null for a task that is not running. */
export function activityLine(view: Quiet, now: number, width: number): string | null {
	if (view.status !== 'running' || view.startedAt === null) return null;
	const output = since(view.lastOutputAt, view.startedAt, now);
	const tool = since(view.lastToolAt, view.startedAt, now);
	const forms = [
		`${output === null ? 'no output yet' : `last output ${output} ago`} · ${tool === null ? 'no tool call yet' : `last tool call ${tool} ago`}`,
		`${output === null ? 'no output yet' : `output ${output} ago`} · ${tool === null ? 'no tool yet' : `tool ${tool} ago`}`,
		`out ${output ?? '–'} · tool ${tool ?? '–'}`,
		`${output ?? '–'}/${tool ?? '–'}`,
	];
	return forms.find(form => [...form].length <= width) ?? forms.at(-1)!;
}
