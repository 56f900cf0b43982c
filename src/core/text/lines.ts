// Text for places that hold one line (a notice, a live status line): a line break there would
// break the frame or the record, so the lines are joined instead.

/** `text` on one line: each line break, with the blanks around it, becomes one space. */
export function joinLines(text: string): string {
	return text.replaceAll(/\s*[\r\n]+\s*/g, ' ');
}
