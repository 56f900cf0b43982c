// Runs only in vitest's `edited-ink` project (vitest.config.ts), the one that runs the UI tests
// again on Ink edited as the build edits it. It shows that the Ink those tests render with is the
// edited one: Ink measures each text it lays out through measureText, which returns the object it
// cached for a text. Once Ink has laid out more distinct texts than the bound, an earlier text is
// measured afresh; Ink as published would still hand back the object it cached first.
import {createRequire} from 'node:module';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {Box, Text} from 'ink';
import {cleanup, render} from 'ink-testing-library';
import {afterEach, expect, it} from 'vitest';
import {cacheLimit} from '../../scripts/ink-cache-bounds.mjs';

type MeasureText = (text: string) => {width: number; height: number};

afterEach(() => {
	cleanup();
});

it('renders with Ink whose text cache is bounded, as in the bundle', async () => {
	// The very module Ink's layout imports (the same file, so the same instance): Ink exports no
	// way to reach it by name.
	const inkBuild = path.dirname(createRequire(import.meta.url).resolve('ink'));
	const {default: measureText} = await import(pathToFileURL(path.join(inkBuild, 'measure-text.js')).href) as {default: MeasureText};
	const probe = measureText('a text measured before the frame');

	const lines = Array.from({length: cacheLimit + 1}, (_, index) => `line ${index}`);
	const {lastFrame} = render(<Box flexDirection="column">{lines.map(line => <Text key={line}>{line}</Text>)}</Box>);
	expect(lastFrame()).toContain(`line ${cacheLimit}`);

	expect(measureText('a text measured before the frame')).not.toBe(probe);
});
