// A report that results.json could not take (a full disk, a quota) lives only in the runner host.
// A detached host used to end with its last task and the report with it: `wait` then found no
// results and blamed a SIGKILL (docs/reliability-security.md). So the host keeps the report and serves it (its
// event history holds batch.finished) until a client has it (a `wait`, or a dashboard that quits
// and prints it), retries the write with a growing pause, and says in host.log what happened;
// `ls` and `wait` read that line (wire/host-json.ts).
import {writeJsonAtomic} from '../core/run-folder/folder.js';
import type {BatchReport} from '../core/types.js';
import {resultsNotWrittenLine, resultsWrittenLaterLine} from '../wire/host-json.js';

const firstRetryMs = 1000;
const lastRetryMs = 30_000;

export class ResultsKeeper {
	private pending: BatchReport | undefined;
	private delivered = false;
	private timer: NodeJS.Timeout | undefined;
	private pause = firstRetryMs;
	/** A later try wrote the report that the runner could not. */
	wroteLater = false;

	constructor(private readonly log: (line: string) => void, private readonly changed: () => void) {}

	/** The batch finished (again) with this report. */
	finished(report: BatchReport): void {
		this.stop();
		this.delivered = false;
		this.wroteLater = false;
		if (report.results_error === undefined) {
			this.pending = undefined;
			return;
		}

		this.pending = report;
		this.pause = firstRetryMs;
		this.log(`${resultsNotWrittenLine}: ${report.results_error}. The report is kept in this host and served until a client has it (\`hermes-delegate wait\`, or a dashboard that quits and prints it); the write is retried meanwhile`);
		this.schedule();
	}

	/** A client that came for the report (`wait`) left with it. */
	taken(): void {
		if (this.pending === undefined || this.delivered) return;
		this.delivered = true;
		this.log('a client (`wait`, or a dashboard that printed it) has the report that results.json could not take');
		this.changed();
	}

	/** The report is on disk, or a client has it: the host may end without losing it. */
	get safe(): boolean {
		return this.pending === undefined || this.delivered;
	}

	stop(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
	}

	private schedule(): void {
		this.timer = setTimeout(() => void this.retry(), this.pause);
		this.timer.unref();
		this.pause = Math.min(lastRetryMs, this.pause * 2);
	}

	private async retry(): Promise<void> {
		const report = this.pending;
		if (report === undefined) return;
		const {results_error: error, ...rest} = report;
		try {
			await writeJsonAtomic(report.results_file, {...rest, warnings: report.warnings.filter(warning => warning !== error)});
		} catch {
			if (this.pending === report) this.schedule();
			return;
		}

		if (this.pending !== report) return;
		this.pending = undefined;
		this.wroteLater = true;
		this.log(`${resultsWrittenLaterLine}: ${report.results_file}`);
		this.changed();
	}
}
