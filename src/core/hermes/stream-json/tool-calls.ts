// The tool calls of one stream-json run, for the results: each `tool_use` paired with its
// `tool_result`, by tool_call_id where Hermes sends one, else by name, oldest call first. At most
// maxToolCalls are kept (a runaway agent may call tools for ever); every call is counted.
import type {ToolCallRecord} from '../../types.js';

const maxToolCalls = 1000;

export class ToolCalls {
	private readonly kept: ToolCallRecord[] = [];
	/** Kept calls still waiting for their tool_result, oldest first. */
	private open: ToolCallRecord[] = [];
	private seen = 0;

	/** Every call, kept or not. */
	get count(): number {
		return this.seen;
	}

	/** Copies of the kept calls, in the order they were made. */
	records(): ToolCallRecord[] {
		return this.kept.map((call) => ({...call}));
	}

	/** A `tool_use`; `input` as the record keeps it. */
	used(name: string, id: string | null, input: string | null): void {
		// A result that came first (out of order) gets its input now instead of a second record.
		const early = id === null ? undefined : this.kept.find((call) => call.id === id && call.input === null && call.is_error !== null);
		if (early) {
			early.input = input;
			return;
		}

		this.seen++;
		if (this.kept.length < maxToolCalls) {
			const record: ToolCallRecord = {name, id, input, duration_ms: null, is_error: null};
			this.kept.push(record);
			this.open.push(record);
		}
	}

	/** A `tool_result`. */
	ended(name: string, id: string | null, durationMs: number | null, isError: boolean): void {
		const byId = id === null ? undefined : this.open.find((candidate) => candidate.id === id);
		// No stored Hermes sends tool_call_id: results are then paired by name, oldest call first.
		// That is right for calls of one tool that ran one after the other, and a guess for calls
		// that overlapped (parallel calls may end in any order): those are marked.
		const sameName = byId ? [] : this.open.filter((candidate) => candidate.name === name && (id === null || candidate.id === null));
		const call = byId ?? sameName[0];
		if (sameName.length > 1) {
			for (const candidate of sameName) candidate.ambiguous = true;
		}

		if (call) {
			this.open = this.open.filter((candidate) => candidate !== call);
			call.duration_ms = durationMs;
			call.is_error = isError;
		} else {
			this.seen++;
			if (this.kept.length < maxToolCalls) this.kept.push({name, id, input: null, duration_ms: durationMs, is_error: isError});
		}
	}
}
