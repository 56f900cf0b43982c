import {describe, expect, it} from 'vitest';
import {TerminalSanitizer, maxEscapeStringLength, sanitizeLine, stripSgr} from '../../../src/core/output/sanitize.js';

const E = '\x1b';
const ST = `${E}\\`;

// [what it is, input, expected output]. Every input has text around the sequence so the
// split tests also cover a sequence starting or ending at a chunk boundary.
const cases: Array<[string, string, string]> = [
	// SGR passes
	['SGR basic colour and reset', `a${E}[31mred${E}[0mz`, `a${E}[31mred${E}[0mz`],
	['SGR empty reset', `a${E}[mz`, `a${E}[mz`],
	['SGR 256 colour with styles', `a${E}[1;4;38;5;208mx${E}[22;24mz`, `a${E}[1;4;38;5;208mx${E}[22;24mz`],
	['SGR truecolor', `a${E}[38;2;255;100;0;48;2;1;2;3mz`, `a${E}[38;2;255;100;0;48;2;1;2;3mz`],
	['SGR colon forms, rewritten with semicolons', `a${E}[38:2::255:100:0m${E}[4:3m${E}[48:5:17mz`, `a${E}[38;2;255;100;0m${E}[4m${E}[48;5;17mz`],
	['SGR underline colour and unknown codes dropped', `a${E}[58:2::1:2:3m${E}[58;5;9m${E}[1;58;5;9;31m${E}[73mz`, `a${E}[1;31mz`],
	['SGR-like with > prefix', `a${E}[>4;2mz`, 'az'],
	['SGR-like with ? prefix', `a${E}[?1mz`, 'az'],
	['SGR-like with < prefix', `a${E}[<1mz`, 'az'],
	['SGR-like with intermediate', `a${E}[1$mz`, 'az'],
	['SGR with absurd parameter list', `a${E}[${'1;'.repeat(100)}mz`, 'az'],
	// OSC
	['OSC 52 clipboard, BEL', `a${E}]52;c;aGVsbG8=\x07z`, 'az'],
	['OSC 52 clipboard, ST', `a${E}]52;c;aGVsbG8=${ST}z`, 'az'],
	['OSC 0 title, BEL', `a${E}]0;evil title\x07z`, 'az'],
	['OSC 2 title, ST', `a${E}]2;evil title${ST}z`, 'az'],
	['OSC 8 hyperlink', `a${E}]8;;https://example.com${ST}link${E}]8;;${ST}z`, 'alinkz'],
	['OSC with 8-bit ST', `a${E}]0;title\x9cz`, 'az'],
	['OSC aborted by CAN', `a${E}]0;title\x18z`, 'az'],
	['OSC aborted by a new escape', `a${E}]0;title${E}[31mz`, `a${E}[31mz`],
	['OSC body may span lines', `a${E}]52;c;QUJD\nREVG\x07z`, 'az'],
	// CSI other than SGR
	['CSI cursor position', `a${E}[2;5Hz`, 'az'],
	['CSI cursor home', `a${E}[Hz`, 'az'],
	['CSI cursor up/forward', `a${E}[A${E}[10Cz`, 'az'],
	['CSI save/restore cursor', `a${E}[s${E}[uz`, 'az'],
	['CSI erase screen', `a${E}[2J${E}[3Jz`, 'az'],
	['CSI erase line', `a${E}[K${E}[1Kz`, 'az'],
	['CSI scroll region', `a${E}[1;10rz`, 'az'],
	['CSI scroll up', `a${E}[5Sz`, 'az'],
	['CSI alt screen', `a${E}[?1049hb${E}[?1049lz`, 'abz'],
	['CSI bracketed paste', `a${E}[?2004h${E}[200~z`, 'az'],
	['CSI hide cursor / mouse', `a${E}[?25l${E}[?1000hz`, 'az'],
	['CSI device status report', `a${E}[6n${E}[cz`, 'az'],
	['CSI window ops', `a${E}[8;100;100t${E}[21tz`, 'az'],
	['CSI aborted by a control', `a${E}[3\nz`, 'a\nz'],
	// DCS, APC, PM, SOS
	['DCS sixel', `a${E}Pq#0;2;0;0;0#1~~${ST}z`, 'az'],
	['DCS DECRQSS', `a${E}P$q"p${ST}z`, 'az'],
	['APC kitty graphics', `a${E}_Gf=100;AAAA${ST}z`, 'az'],
	['PM', `a${E}^private${ST}z`, 'az'],
	['SOS', `a${E}Xstart of string${ST}z`, 'az'],
	// two-character and charset sequences
	['ESC 7 / ESC 8', `a${E}7${E}8z`, 'az'],
	['ESC c full reset', `a${E}cz`, 'az'],
	['ESC = / ESC >', `a${E}=${E}>z`, 'az'],
	['ESC M reverse index', `a${E}Mz`, 'az'],
	['stray ST', `a${ST}z`, 'az'],
	['charset ESC ( B / ESC ) 0', `a${E}(B${E})0z`, 'az'],
	['ESC # 8 screen fill', `a${E}#8z`, 'az'],
	['ESC then line break', `a${E}\nz`, 'a\nz'],
	['double ESC', `a${E}${E}[31mz`, `a${E}[31mz`],
	// 8-bit C1
	['8-bit CSI erase', 'a\x9b2Jz', 'az'],
	['8-bit CSI SGR', 'a\x9b31mz', 'az'],
	['8-bit OSC with BEL', 'a\x9d0;title\x07z', 'az'],
	['8-bit OSC with 8-bit ST', 'a\x9d52;c;QQ==\x9cz', 'az'],
	['8-bit DCS / SOS / PM / APC', 'a\x90q\x9cb\x98s\x9cc\x9ep\x9cd\x9fa\x9cz', 'abcdz'],
	['other C1 controls', 'a\x84\x85\x8d\x9cz', 'az'],
	// C0 and DEL
	['BEL BS VT FF NUL', 'a\x07\x08\x0b\x0c\x00z', 'az'],
	['SO SI ENQ CAN SUB', 'a\x0e\x0f\x05\x18\x1az', 'az'],
	['DEL', 'a\x7fz', 'az'],
	['tab, LF, CR kept', 'a\tb\nc\r\nz', 'a\tb\nc\r\nz'],
	['non-ASCII text kept', 'héllo 世界 😀', 'héllo 世界 😀'],
	['mixed', `a${E}[2Jb${E}[32mc${E}]0;t\x07d\x9b1Ae`, `ab${E}[32mcde`],
];

function feed(parts: string[]): string {
	const sanitizer = new TerminalSanitizer();
	return parts.map((part) => sanitizer.push(part)).join('') + sanitizer.flush();
}

describe('TerminalSanitizer', () => {
	it.each(cases)('%s', (_name, input, expected) => {
		expect(sanitizeLine(input)).toBe(expected);
	});

	it.each(cases)('%s: same output split at every position', (_name, input, expected) => {
		for (let k = 0; k <= input.length; k++) {
			expect(feed([input.slice(0, k), input.slice(k)]), `split at ${k}`).toBe(expected);
		}
	});

	it.each(cases)('%s: same output fed one character at a time', (_name, input, expected) => {
		expect(feed([...input])).toBe(expected);
	});

	it('holds a lone ESC at the end of a chunk for the next chunk', () => {
		const sanitizer = new TerminalSanitizer();
		expect(sanitizer.push(`abc${E}`)).toBe('abc');
		expect(sanitizer.push('[31mx')).toBe(`${E}[31mx`);
	});

	it('holds an unterminated OSC until its terminator arrives', () => {
		const sanitizer = new TerminalSanitizer();
		expect(sanitizer.push(`before${E}]0;ti`)).toBe('before');
		expect(sanitizer.push('tle still')).toBe('');
		expect(sanitizer.push('\x07after')).toBe('after');
	});

	it('flush drops an incomplete sequence instead of emitting it', () => {
		const sanitizer = new TerminalSanitizer();
		expect(sanitizer.push(`a${E}[3`)).toBe('a');
		expect(sanitizer.flush()).toBe('');
		// The held "ESC [ 3" is gone: what follows is plain text again.
		expect(sanitizer.push('1mx')).toBe('1mx');
		expect(sanitizer.push(`${E}]0;title`)).toBe('');
		expect(sanitizer.flush()).toBe('');
		expect(sanitizer.push('visible')).toBe('visible');
	});

	it('swallows a huge unterminated OSC without emitting any of it', () => {
		const sanitizer = new TerminalSanitizer();
		expect(sanitizer.push(`${E}]52;c;`)).toBe('');
		const chunk = 'QUFB'.repeat(16 * 1024);
		for (let k = 0; k < 16; k++) {
			expect(sanitizer.push(chunk)).toBe('');
		}
		expect(sanitizer.push('\x07after')).toBe('after');
	});

	it('gives up an OSC past the cap at the next line break, so output resumes', () => {
		const body = 'x'.repeat(maxEscapeStringLength + 10);
		expect(sanitizeLine(`${E}]0;${body}\nnext line\n`)).toBe('\nnext line\n');
		expect(sanitizeLine(`${E}]0;${body}more\x07shown`)).toBe('shown');
		// Below the cap a line break is just part of the body.
		expect(sanitizeLine(`${E}]0;${'x'.repeat(100)}\nhidden\x07shown`)).toBe('shown');
	});

	it('applies the cap the same way however the stream is split', () => {
		const input = `a${E}]0;${'x'.repeat(maxEscapeStringLength - 2)}yyyy\nz`;
		const expected = sanitizeLine(input);
		expect(expected).toBe('a\nz');
		for (let k = maxEscapeStringLength - 20; k <= input.length; k++) {
			expect(feed([input.slice(0, k), input.slice(k)]), `split at ${k}`).toBe(expected);
		}
	});

	it('returns plain text unchanged', () => {
		const text = 'just text\twith a tab\n';
		expect(new TerminalSanitizer().push(text)).toBe(text);
	});
});

describe('stripSgr', () => {
	it('removes SGR and keeps the text', () => {
		expect(stripSgr(`${E}[1;31mbold red${E}[0m and ${E}[38:2::1:2:3mrgb${E}[m`)).toBe('bold red and rgb');
	});

	it('leaves text without escapes as it is', () => {
		expect(stripSgr('plain')).toBe('plain');
	});
});
