// The targets the suite judges: issue 39's Cost table (restated: the dashboard against the peer a
// user would otherwise run, measured side by side in the same run, or an absolute budget where no
// peer applies), row by row in the issue's order, and issue 9's that still stand beside it.
// `target` is the highest figure that meets it: a ratio against `peer`, or in `unit`.

/** Issue 39: bytes to the terminal, trickle 200×50, at most a quarter of "today's" ~146 KB/s. */
export const bytesBeforeKBps = 146;

/** The rows of issue 39's Cost table, with the sizes of this run in their names. */
export function costRows(size) {
	const {flood, trickle, slowTrickle, keys, bytes, quick, headlessFlood, attach, idleHost, soak} = size;
	const floodName = `flood ${flood.tasks}×${flood.lines} lines`;
	const trickleName = `trickle ${trickle.tasks}×20 lines/s×${trickle.seconds}s`;
	const slowName = `slow trickle ${slowTrickle.tasks}×${slowTrickle.rate} lines/s×${slowTrickle.seconds}s`;
	const rows = {
		floodCpu: {id: '1', figure: `${floodName}: CPU (dashboard + host)`, target: 0.1, peer: 'mprocs'},
		trickleCpu: {id: '2', figure: `${trickleName}: CPU (dashboard + host)`, target: 0.4, peer: 'mprocs'},
		slowCpu: {id: '3', figure: `${slowName}: CPU (dashboard + host)`, target: 0.5, peer: 'mprocs'},
		floodRss: {id: '4a', figure: `peak RSS (dashboard + host), ${floodName}`, target: 1, peer: 'mprocs'},
		trickleRss: {id: '4b', figure: `peak RSS (dashboard + host), ${trickleName}`, target: 1, peer: 'mprocs'},
		slowRss: {id: '4c', figure: `peak RSS (dashboard + host), ${slowName}`, target: 120, unit: 'MiB'},
		focus: {id: '5a', figure: `key → screen under a flood of ${keys.tasks}: focus, p95`, target: 50, unit: 'ms'},
		cancel: {id: '5b', figure: `key → screen under a flood of ${keys.tasks}: c y → pane cancelling, p95`, target: 50, unit: 'ms'},
		bytes: {id: '6', figure: `bytes to the terminal a second, trickle ${bytes.tasks}×${bytes.rate} lines/s${bytes.varied ? ' (varied lines)' : ''}, 200×50`, target: bytesBeforeKBps / 4, unit: 'KB/s', note: `25 % of ${bytesBeforeKBps}`},
		quickCpu: {id: '7a', figure: `\`run\` CPU (the whole process tree), quick ${quick.tasks} × -j 8`, target: 1, peer: 'parallel'},
		floodRunCpu: {id: '7b', figure: `\`run\` CPU (the whole process tree), headless flood ${headlessFlood.tasks}×${headlessFlood.lines}, -j ${headlessFlood.tasks}`, target: 1.3, peer: 'parallel'},
		attach: {id: '8a', figure: `attach to ${attach.tasks} tasks: connect → whole snapshot`, target: 200, unit: 'ms'},
		idle: {id: '8b', figure: `idle host with ${idleHost.tasks} quiet tasks: CPU`, target: 0.5, unit: '% of a core'},
		soak: {id: '8c', figure: `soak ${soak.tasks}×20 lines/s×${soak.seconds}s: RSS growth`, target: 10, unit: '%'},
	};
	return Object.fromEntries(Object.entries(rows).map(([key, row]) => [key, {...row, targetText: targetText(row)}]));
}

/** "≤ 0.1× mprocs", "≤ 120 MiB", "≤ 36.5 KB/s (25 % of 146)". */
export const targetText = row => (row.peer ? `≤ ${row.target}× ${row.peer}` : `≤ ${row.target} ${row.unit}${row.note ? ` (${row.note})` : ''}`);

/** Which rows each workload fills (BENCH_ONLY names workloads). */
export const rowsOfWorkload = {
	flood: ['floodCpu', 'floodRss'],
	trickle: ['trickleCpu', 'trickleRss'],
	'slow-trickle': ['slowCpu', 'slowRss'],
	soak: ['soak'],
	keys: ['focus', 'cancel'],
	bytes: ['bytes'],
	'headless-quick': ['quickCpu'],
	'headless-flood': ['floodRunCpu'],
	attach: ['attach'],
	'idle-host': ['idle'],
};
