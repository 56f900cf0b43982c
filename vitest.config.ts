import {defineConfig} from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.{ts,tsx}'],
		setupFiles: ['test/helpers/setup.ts'],
		// Process tests spawn real process groups; keep files isolated and give the
		// kill cascade room on a loaded 2-core CI machine (tests wait on events, not sleeps).
		testTimeout: 60_000,
		hookTimeout: 60_000,
		pool: 'forks',
	},
});
