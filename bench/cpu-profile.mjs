// Reading a V8 .cpuprofile (node --cpu-prof) back to src/ and the bundled packages through dist/'s
// source maps: self time by function and by module, for the scripts that profile the dashboard
// (profile-flood.mjs) and `run` (profile-run.mjs).
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const base64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Source map v3 `mappings` → per generated line, segments [column, source, line, column]. */
function decodeMappings(mappings) {
	const lines = [];
	let source = 0;
	let sourceLine = 0;
	let sourceColumn = 0;
	for (const lineText of mappings.split(';')) {
		const segments = [];
		let column = 0;
		for (const segmentText of lineText.split(',')) {
			if (!segmentText) {
				continue;
			}

			const values = [];
			let value = 0;
			let shift = 0;
			for (const char of segmentText) {
				const digit = base64.indexOf(char);
				value += (digit & 31) << shift;
				if (digit & 32) {
					shift += 5;
				} else {
					values.push(value & 1 ? -(value >>> 1) : value >>> 1);
					value = 0;
					shift = 0;
				}
			}

			column += values[0];
			if (values.length >= 4) {
				source += values[1];
				sourceLine += values[2];
				sourceColumn += values[3];
				segments.push([column, source, sourceLine, sourceColumn]);
			}
		}

		lines.push(segments);
	}

	return lines;
}

const maps = new Map();
function sourceMap(file) {
	if (!maps.has(file)) {
		const mapFile = `${file}.map`;
		const map = existsSync(mapFile) ? JSON.parse(readFileSync(mapFile, 'utf8')) : undefined;
		maps.set(file, map && {sources: map.sources.map(source => path.relative(root, path.resolve(path.dirname(file), map.sourceRoot ?? '', source))), lines: decodeMappings(map.mappings)});
	}

	return maps.get(file);
}

/** Where a profiled function comes from: the original file and line, when dist/ maps it. */
export function origin({url, lineNumber, columnNumber}) {
	if (!url) {
		return {file: '(native or VM)', line: 0};
	}

	const file = url.startsWith('file://') ? fileURLToPath(url) : url;
	const map = file.startsWith('/') ? sourceMap(file) : undefined;
	const segments = map?.lines[lineNumber];
	const segment = segments?.findLast(candidate => candidate[0] <= columnNumber);
	return segment ? {file: map.sources[segment[1]], line: segment[2] + 1} : {file: path.relative(root, file) || file, line: lineNumber + 1};
}

/** node_modules/<package> (scoped ones too), else the file itself. */
function moduleOf(file) {
	const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
	return match ? match[1] : file;
}

/** Self time (ms) in all, and the `top` functions and modules by self time. */
export function summarise(profile, top = 10) {
	const selfMs = new Map(profile.nodes.map(node => [node.id, 0]));
	profile.samples.forEach((id, index) => {
		selfMs.set(id, selfMs.get(id) + (profile.timeDeltas[index] ?? 0) / 1000);
	});
	const functions = new Map();
	const modules = new Map();
	let total = 0;
	for (const node of profile.nodes) {
		const ms = selfMs.get(node.id);
		total += ms;
		const {file, line} = origin(node.callFrame);
		const special = /^\(/.test(node.callFrame.functionName);
		const functionKey = special ? node.callFrame.functionName : `${node.callFrame.functionName || '(anonymous)'}  ${file}:${line}`;
		const moduleKey = special ? node.callFrame.functionName : moduleOf(file);
		functions.set(functionKey, (functions.get(functionKey) ?? 0) + ms);
		modules.set(moduleKey, (modules.get(moduleKey) ?? 0) + ms);
	}

	const ranked = table => [...table].sort((a, b) => b[1] - a[1]).slice(0, top);
	return {total, functions: ranked(functions), modules: ranked(modules)};
}
