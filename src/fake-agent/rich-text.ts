// Hermes's text mode prints through Rich on an 80-column console (stdout a pipe, COLUMNS unset):
// those lines end in `\r\n`, the others in `\n`; the reply panel renders Markdown. The layout here
// is the one recorded for 0.19.0 and 0.20.0 (the recordings docs/hermes-releases.md lists, chat-text-*,
// fail500-text-*, unknown-provider-text). It is an output format our text-mode reading depends on.
import type {FakeVersion} from './versions.js';

export const consoleWidth = 80;
export const crlf = '\r\n';

/** Rich's greedy wrap: a word and the spaces after it stay together; a line may end in its space. */
export function wrap(text: string, width: number): string[] {
	const lines: string[] = [];
	for (const paragraph of text.split('\n')) {
		const words = paragraph.match(/\S+\s*/g) ?? [''];
		let line = '';
		for (const word of words) {
			if (line !== '' && (line + word.trimEnd()).length > width) {
				lines.push(line);
				line = word;
			} else {
				line += word;
			}
		}

		lines.push(line.length > width ? line.trimEnd() : line);
	}

	return lines;
}

// 0.19.0 indents the reply by 4 and wraps prose; in the recording its width lies between 73 and 75.
const oldBodyWidth = 74;

/**
 * The reply as the panel shows it: a fence's opening line becomes its language label, its closing
 * line a blank one, code stays as it is; prose is wrapped (0.19.0 only), never the code.
 */
export function renderReply(reply: string, release: FakeVersion['version']): string[] {
	const old = release === '0.19.0';
	const out: string[] = [];
	let inCode = false;
	for (const line of reply.split('\n')) {
		const fence = /^```\s*(\S*)\s*$/.exec(line);
		if (fence) {
			if (inCode) out.push('');
			else if (fence[1]) out.push(fence[1]);
			inCode = !inCode;
		} else if (inCode || !old) {
			out.push(line);
		} else {
			out.push(...wrap(line, oldBodyWidth).map((part) => part.trimEnd()));
		}
	}

	return out.map((line) => (old ? `    ${line}` : line));
}

export function replyPanel(reply: string, release: FakeVersion['version']): string {
	const title = '╭─ ⚕ Hermes ';
	const top = `${title}${'─'.repeat(consoleWidth - title.length - 1)}╮`;
	const bottom = `╰${'─'.repeat(consoleWidth - 2)}╯`;
	return [top, ...renderReply(reply, release), bottom].map((line) => `${line}${crlf}`).join('');
}

/** The panel a failed reply gets: no corners, every line padded to the full width. */
export function errorPanel(message: string, release: FakeVersion['version']): string {
	const old = release === '0.19.0';
	const inner = consoleWidth - 2;
	const title = ' ─  ⚕ Hermes  ';
	const blank = ' '.repeat(consoleWidth);
	// 0.19.0 pads the body by 4 on each side and wraps it; 0.20.0 neither pads nor wraps.
	const body = old ? wrap(message, inner - 8).map((line) => ` ${'    '}${line.trimEnd().padEnd(inner - 8)}${'    '} `) : [` ${message.padEnd(inner)} `];
	const lines = [`${title}${'─'.repeat(consoleWidth - title.length - 1)} `, blank, ...body, blank, ` ${'─'.repeat(inner)} `];
	return lines.map((line) => `${line}${crlf}`).join('');
}

/** A plain message printed through Rich: wrapped at 80 columns, `\r\n` line ends. */
export function richLines(message: string): string {
	return wrap(message, consoleWidth)
		.map((line) => `${line}${crlf}`)
		.join('');
}
