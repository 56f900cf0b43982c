// A key written twice in one YAML map, found as Hermes 0.21's reader (ruamel.yaml, YAML 1.1:
// upstream hermes_yaml.py) finds it and refuses the file. Shared by the config reader, which
// refuses such a file, and doctor, which looks at every home's config.yaml.
import {parseDocument} from 'yaml';

/** The first key written twice in one map, if any: its name as written and the line of its second time. */
export function duplicateKeyIn(text: string): {key: string; line: number} | undefined {
	const document = parseDocument(text, {version: '1.1', merge: true, uniqueKeys: true});
	const error = document.errors.find(found => found.code === 'DUPLICATE_KEY');
	if (!error) return undefined;
	const lineStart = text.lastIndexOf('\n', error.pos[0] - 1) + 1;
	const lineEnd = text.indexOf('\n', error.pos[0]);
	const key = /^\s*(?:-\s+)?["']?([^"':]+)/.exec(text.slice(error.pos[0], lineEnd === -1 ? undefined : lineEnd))?.[1]?.trim() ?? '?';
	return {key, line: text.slice(0, lineStart).split('\n').length};
}
