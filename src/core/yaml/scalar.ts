// A new value written as YAML text the way the operator's file writes it there: a scalar in its
// style (plain only where both YAML versions read it back the same), new keys and new list items
// as block lines. splice.ts decides where the text goes; this decides what it says.
import {parse, type Scalar} from 'yaml';
import {pyYamlRefusal} from './pyyaml.js';

/** A scalar, a list of flat maps (new routes) or of strings (an MCP server's args): what an edit may write. */
export type NewValue = string | number | Array<Record<string, string> | string>;

/**
 * A string as YAML text in the style the file already uses there. Plain only where both YAML 1.2
 * (this tool) and YAML 1.1 (Hermes's PyYAML, where `yes`/`off`/`1:20` are not strings) read it
 * back as the same string; otherwise double-quoted.
 */
export function formatScalar(value: string, style: Scalar.Type | undefined, flow: boolean): string {
	const printable = !/[\u0000-\u001F\u007F-\u009F\u2028\u2029]/.test(value) && pyYamlRefusal(value) === undefined;
	if (style === 'QUOTE_SINGLE' && printable) {
		return `'${value.replaceAll('\'', '\'\'')}'`;
	}

	if ((style === undefined || style === 'PLAIN') && printable && isSafePlain(value, flow)) {
		return value;
	}

	return doubleQuoted(value);
}

/**
 * A double-quoted YAML string with every character Hermes's PyYAML would refuse in the file
 * (C0/C1 controls, U+FFFE, U+FFFF, lone surrogates) written as an escape: Hermes reads the
 * same string, and the diff shows the operator exactly those escapes.
 */
function doubleQuoted(value: string): string {
	return JSON.stringify(value).replace(/[\u007F-\u009F\u2028\u2029\uFFFE\uFFFF]/g, char => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function isSafePlain(value: string, flow: boolean): boolean {
	if (value === '' || value.trim() !== value) {
		return false;
	}

	try {
		const inFlowList: unknown = flow ? parse(`[${value}]`) : [value];
		return keyRead(parse(`key: ${value}\n`)) === value && keyRead(parse(`key: ${value}\n`, {version: '1.1'})) === value
			&& Array.isArray(inFlowList) && inFlowList.length === 1 && inFlowList[0] === value;
	} catch {
		return false;
	}
}

function keyRead(parsed: unknown): unknown {
	return typeof parsed === 'object' && parsed !== null && 'key' in parsed ? parsed.key : undefined;
}

/** `key:` lines for `path` → value, indented `indent` spaces, nested by `step`. */
export function emit(path: readonly string[], value: NewValue, indent: number, step: number): string {
	const pad = ' '.repeat(indent);
	const [key, ...rest] = path;
	if (rest.length > 0) {
		return `${pad}${key}:\n${emit(rest, value, indent + step, step)}`;
	}

	if (typeof value === 'object') {
		return `${pad}${key}:\n${emitItems(value, indent + step)}`;
	}

	return `${pad}${key}: ${typeof value === 'number' ? String(value) : formatScalar(value, undefined, false)}\n`;
}

export function emitItems(items: ReadonlyArray<Record<string, string> | string>, indent: number): string {
	return items.map(item => typeof item === 'string' ? `${' '.repeat(indent)}- ${formatScalar(item, undefined, false)}\n` : Object.entries(item).map(([key, value], index) => `${' '.repeat(indent)}${index === 0 ? '- ' : '  '}${key}: ${formatScalar(value, undefined, false)}\n`).join('')).join('');
}
