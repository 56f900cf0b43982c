// The most one reply may carry to a client. A read-output reply holds every kept line of a pane (up
// to 2000 of up to 2000 characters: megabytes): one client asking for it over and over would
// otherwise make the host encode and hold that much per request. The newest lines are kept, as the
// zoom shows the end first; `first` still numbers them, so the client sees where they begin.
import type {OutputRange} from '../wire/port.js';

/** The bytes of a read-output reply's lines (1 MiB: some 500 lines of the longest kind, or all 2000 of 500 bytes). */
export const maxReadOutputBytes = 1024 * 1024;

export function boundedRange(range: OutputRange, maxBytes = maxReadOutputBytes): OutputRange {
	let bytes = 0;
	let start = range.lines.length;
	while (start > 0) {
		// As the line will be framed: JSON-escaped, with its comma.
		const size = Buffer.byteLength(JSON.stringify(range.lines[start - 1]!)) + 1;
		if (bytes + size > maxBytes) break;
		bytes += size;
		start--;
	}

	return start === 0 ? range : {...range, first: range.first + start, lines: range.lines.slice(start)};
}
