import {createLogger} from 'vite';
import {configDefaults, defineConfig} from 'vitest/config';
import {boundInkCaches} from './scripts/ink-cache-bounds.mjs';

// Proves the second project renders with the edited Ink; on Ink as published it fails.
const editedInkProof = 'test/scripts/ink-cache-bounds-in-ui-tests.test.tsx';

// Ink's build files name source maps of a src/ that Ink does not publish: once Ink loads through
// Vite, Vite would warn about each of its ~80 files on every run.
const logger = createLogger();
const warnOnce = logger.warnOnce.bind(logger);
logger.warnOnce = (message, options) => {
	if (!/node_modules\/ink(-testing-library)?\/build\/.*points to missing source files/.test(message)) warnOnce(message, options);
};

export default defineConfig({
	test: {
		setupFiles: ['test/helpers/setup.ts'],
		// Process tests spawn real process groups; keep files isolated and give the
		// kill cascade room on a loaded 2-core CI machine (tests wait on events, not sleeps).
		testTimeout: 60_000,
		hookTimeout: 60_000,
		pool: 'forks',
		projects: [
			{
				extends: true,
				test: {
					name: 'unit',
					include: ['test/**/*.test.{ts,tsx}'],
					exclude: [...configDefaults.exclude, editedInkProof],
				},
			},
			// Users run the bundle's Ink, which the build edits (scripts/ink-cache-bounds.mjs); the
			// project above renders with node_modules/ink as published. So the UI tests run again
			// here, on Ink edited by the build's own plugin as its files load. Vitest hands
			// node_modules to Node untouched unless told to inline them: Ink, and
			// ink-testing-library so that its `import 'ink'` reaches the same edited copy.
			{
				extends: true,
				plugins: [boundInkCaches()],
				customLogger: logger,
				test: {
					name: 'edited-ink',
					include: ['test/ui/**/*.test.{ts,tsx}', editedInkProof],
					server: {deps: {inline: ['ink', 'ink-testing-library']}},
				},
			},
		],
	},
});
