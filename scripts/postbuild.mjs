// tsc does not set the executable bit; the CLI and the fake agent are run directly
// (the fake agent stands in for `hermes`, which is always exec'd, never `node hermes.js`).
import {chmodSync} from 'node:fs';
for (const file of ['dist/cli.js', 'dist/fake-agent/hermes.js']) {
	try {
		chmodSync(file, 0o755);
	} catch (error) {
		if (error.code !== 'ENOENT') throw error;
	}
}
