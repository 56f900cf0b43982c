// Medians, percentiles and the one table the suite prints.
export function median(values) {
	return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of a non-empty list. */
export function percentile(values, p) {
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
	return sorted[rank - 1];
}

/** Rows of strings → a Markdown table, columns padded so that it also reads in a terminal. */
export function markdownTable(header, rows) {
	const widths = header.map((title, column) => Math.max(title.length, ...rows.map(row => String(row[column]).length)));
	const line = cells => `| ${cells.map((cell, column) => String(cell).padEnd(widths[column])).join(' | ')} |`;
	return [line(header), line(widths.map(width => '-'.repeat(width))), ...rows.map(line)].join('\n');
}
