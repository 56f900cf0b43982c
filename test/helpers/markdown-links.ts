// The links of the project's Markdown (README.md, CONTRIBUTING.md, CHANGELOG.md, docs/) and
// whether each reaches something: a file of this repository, and the heading its #anchor names
// (as GitHub makes anchors from headings). Links to other sites are not followed (no network in
// tests). Used by test/scripts/links.test.ts.
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';

export type BrokenLink = {file: string; line: number; target: string; why: string};

/** The Markdown files whose links are checked, relative to the repository root. */
export function documentationFiles(root: string): string[] {
	const files = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].filter(file => existsSync(path.join(root, file)));
	const walk = (dir: string): void => {
		for (const entry of readdirSync(path.join(root, dir), {withFileTypes: true})) {
			const relative = path.join(dir, entry.name);
			if (entry.isDirectory()) walk(relative);
			else if (entry.name.endsWith('.md')) files.push(relative);
		}
	};

	for (const dir of ['docs', 'examples']) if (existsSync(path.join(root, dir))) walk(dir);
	return files;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
export function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const line of withoutCode(markdown)) {
		const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line.text);
		if (!heading) continue;
		const text = heading[1]!.replaceAll(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replaceAll(/<[^>]+>/g, '');
		const base = text.toLowerCase().replaceAll(/[^\p{L}\p{N}\s_-]/gu, '').replaceAll(/\s/g, '-');
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}

	return anchors;
}

/** The lines outside fenced code blocks, with inline code spans blanked. */
function withoutCode(markdown: string): Array<{text: string; line: number}> {
	const lines: Array<{text: string; line: number}> = [];
	let fence: string | undefined;
	for (const [index, text] of markdown.split('\n').entries()) {
		const marker = /^\s*(```+|~~~+)/.exec(text)?.[1];
		if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
			fence = fence === undefined ? marker : undefined;
			continue;
		}

		if (fence === undefined) lines.push({text: text.replaceAll(/`[^`]*`/g, match => match.includes('](') ? '' : match), line: index + 1});
	}

	return lines;
}

export function brokenLinks(repository: string): BrokenLink[] {
	const root = path.resolve(repository);
	const broken: BrokenLink[] = [];
	for (const file of documentationFiles(root)) {
		const markdown = readFileSync(path.join(root, file), 'utf8');
		for (const {text, line} of withoutCode(markdown)) {
			for (const match of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
				const target = match[1]!;
				const why = whyBroken(root, file, markdown, target);
				if (why !== undefined) broken.push({file, line, target, why});
			}
		}
	}

	return broken;
}

function whyBroken(root: string, file: string, markdown: string, target: string): string | undefined {
	if (/^[a-z][a-z+.-]*:/i.test(target)) return undefined; // https:, mailto: — another site's business
	const [pathPart = '', anchor] = target.split('#', 2);
	const resolved = pathPart === '' ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), decodeURIComponent(pathPart));
	if (!resolved.startsWith(root + path.sep) && resolved !== root) return 'points outside the repository';
	if (!existsSync(resolved)) return 'no such file';
	if (anchor === undefined || anchor === '') return undefined;
	if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return 'an anchor into something that is not a Markdown file';
	const text = pathPart === '' ? markdown : readFileSync(resolved, 'utf8');
	return anchorsOf(text).has(anchor) ? undefined : `no heading with the anchor #${anchor}`;
}
