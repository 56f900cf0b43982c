// A new value for a block scalar (`description: >-` and its indented lines, or `|`) written as a
// block scalar of the same kind, so that an edit keeps the operator's layout instead of turning a
// folded paragraph into one long quoted line. Undefined when the value cannot be written so
// (control characters, leading blanks, trailing blank lines): the caller quotes it instead.
import {parse} from 'yaml';
import {pyYamlRefusal} from './pyyaml.js';
import {hermesYamlOptions} from '../text/yaml-locate.js';

const width = 80;

export function blockScalar(value: string, style: 'BLOCK_FOLDED' | 'BLOCK_LITERAL', indent: string): string | undefined {
	if (value === '' || /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029]/.test(value) || pyYamlRefusal(value) || value.endsWith('\n\n')) {
		return undefined;
	}

	const clipped = value.endsWith('\n');
	const body = clipped ? value.slice(0, -1) : value;
	const lines = body.split('\n');
	if (lines.some(line => /^[ \t]/.test(line)) || lines.some(line => line === '')) {
		return undefined;
	}

	const chomp = clipped ? '' : '-';
	const content = style === 'BLOCK_LITERAL' ? lines : lines.flatMap((line, index) => [...(index > 0 ? [''] : []), ...wrap(line, width - indent.length)]);
	const block = `${style === 'BLOCK_LITERAL' ? '|' : '>'}${chomp}`;
	// Checked by reading it back: a block that would say anything else is not written.
	const check = parse(`k: ${block}\n${content.map(line => (line ? `  ${line}` : '')).join('\n')}\n`, hermesYamlOptions) as {k?: unknown} | null;
	if (check?.k !== value) {
		return undefined;
	}

	// Line ends as LF: applySplices turns them into the file's own.
	return `${block}\n${content.map(line => (line ? `${indent}${line}` : '')).join('\n')}`;
}

/** A folded line broken at single spaces (a break there reads back as that space). */
function wrap(line: string, room: number): string[] {
	const out: string[] = [];
	let rest = line;
	while (rest.length > room) {
		const cut = lastSingleSpace(rest, Math.max(room, 20));
		if (cut === -1) {
			break;
		}

		out.push(rest.slice(0, cut));
		rest = rest.slice(cut + 1);
	}

	out.push(rest);
	return out;
}

function lastSingleSpace(text: string, before: number): number {
	for (let index = Math.min(before, text.length - 1); index > 0; index--) {
		if (text[index] === ' ' && text[index - 1] !== ' ' && text[index + 1] !== ' ' && text[index + 1] !== undefined) {
			return index;
		}
	}

	return -1;
}
