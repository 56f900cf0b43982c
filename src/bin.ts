#!/usr/bin/env node
// The executable (dist/cli.js). It checks the Node version before loading anything else: the CLI
// and its libraries live in other chunks of the bundle, imported only once the check has passed,
// so an old Node gets a message, not a crash in a library. Keep this file free of imports other
// than node-support.ts, and of syntax an old Node cannot parse; the young generation's cap
// (young-generation.ts) uses only node: modules an old Node has.
import {unsupportedNode} from './node-support.js';

const problem = unsupportedNode(process.versions.node);
if (problem === undefined) {
	// Before the CLI loads: loading it is what first grows the young generation.
	(await import('./young-generation.js')).capYoungGeneration();
	await import('./cli.js');
} else {
	process.stderr.write(`${problem}\n`);
	process.exitCode = 2; // as for every refusal before anything started (core/errors.ts exitCodes.usage)
}
