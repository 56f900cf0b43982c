// The runner host's process: client/launch.ts starts it as `cli.js __host`, and bin.ts comes here
// instead of to cli.ts. The host runs one command, never typed by anyone, so it skips commander,
// the program's twenty commands and the orphan scan cli.ts makes before every command (the host
// makes its own run folder): with the dashboard, every batch starts two Node processes, and
// what the second loads is paid again each time (bench/RESULTS.md). What cli.ts does around a
// command is done here the same way: the subagents' groups never outlive the process, an error
// nobody expected exits 70 (its stderr is /dev/null: host.log has it, commands/host.ts).
import {hostCommand} from './commands/host.js';
import {flushed} from './commands/io.js';
import {exitCodes} from './core/errors.js';
import {killUnfinishedGroupsNow} from './core/process/group.js';

// Node has started and the bundle is loaded: the first phase of the host's start (host.log says it).
const loadedAt = performance.now();

process.on('exit', () => {
	const killed = killUnfinishedGroupsNow();
	if (killed.length > 0) {
		process.stderr.write(`hermes-delegate: exiting with ${killed.length} subagent process group(s) still alive; sent SIGKILL to ${killed.join(', ')}\n`);
	}
});

try {
	process.exitCode = await hostCommand({env: {...process.env}, stdin: process.stdin, loadedAt});
} catch (error) {
	process.stderr.write(`hermes-delegate: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
	process.exitCode = exitCodes.internalError;
}

await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(process.exitCode ?? 0);
