// The package as a user gets it: `npm pack`, then `npm install -g` of that
// tarball into a fresh prefix, then the installed command runs the demo batch headless and reads
// its spend back from state.db (which loads the native better-sqlite3 the install built). Fails on
// an engine warning, on an install script of our own, or when the installed CLI does not work.
// Prints the tarball's size, the install's size and its time, for bench/RESULTS.md. Run by .ci/run.
//   node scripts/package-check.mjs        (dist/ must be built: `npm run build`)
import {execFileSync, spawnSync} from 'node:child_process';
import {mkdtempSync, readdirSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(path.join(tmpdir(), 'hd-package-'));
const fail = message => {
	console.error(`package check: ${message}`);
	process.exitCode = 1;
};

function sizeOf(target) {
	const stat = statSync(target);
	if (!stat.isDirectory()) return stat.size;
	return readdirSync(target).reduce((sum, name) => sum + sizeOf(path.join(target, name)), 0);
}

const mib = bytes => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

try {
	const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', scratch], {cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit']}))[0];
	const tarball = path.join(scratch, packed.filename);
	const prefix = path.join(scratch, 'prefix');
	const started = process.hrtime.bigint();
	const install = spawnSync('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--allow-scripts=better-sqlite3', tarball], {encoding: 'utf8'});
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	const said = `${install.stdout}${install.stderr}`;
	if (install.status !== 0) throw new Error(`npm install -g of ${packed.filename} failed:\n${said}`);
	if (/EBADENGINE/.test(said)) fail(`an engine warning on install:\n${said}`);
	if (new RegExp(`${packed.name}@[^ ]+ \\((preinstall|install|postinstall|prepare)`).test(said)) fail(`the package runs an install script of its own:\n${said}`);

	const bin = path.join(prefix, 'bin', 'hermes-delegate');
	const env = {...process.env, HERMES_DELEGATE_DEMO_HOME: path.join(scratch, 'demo-home'), NO_COLOR: '1'};
	const version = execFileSync(bin, ['--version'], {encoding: 'utf8', env}).trim();
	const demo = spawnSync(bin, ['run', '--demo'], {encoding: 'utf8', env});
	// The demo fails one task on purpose: exit 1 with the whole report is its success.
	const report = demo.status === 1 ? JSON.parse(demo.stdout) : undefined;
	if (report === undefined) fail(`run --demo exited ${demo.status}:\n${demo.stderr}`);
	else {
		const spend = spawnSync(bin, ['spend', report.run_id, '--json'], {encoding: 'utf8', env});
		const tokens = spend.status === 0 ? JSON.parse(spend.stdout).spend?.total?.input_tokens : undefined;
		if (typeof tokens !== 'number' || tokens <= 0) fail(`spend of the demo run read no tokens from state.db (exit ${spend.status}):\n${spend.stdout}${spend.stderr}`);
	}

	const installed = path.join(prefix, 'lib', 'node_modules', packed.name);
	const packages = readdirSync(path.join(installed, 'node_modules')).flatMap(name => (name.startsWith('@') ? readdirSync(path.join(installed, 'node_modules', name)) : [name])).length;
	console.log(`package: ${packed.filename}: ${mib(packed.size)} packed, ${mib(packed.unpackedSize)} unpacked, ${packed.entryCount} files`);
	console.log(`install -g from the tarball (Node ${process.versions.node}, npm ${execFileSync('npm', ['--version'], {encoding: 'utf8'}).trim()}): ${seconds.toFixed(1)} s, ${mib(sizeOf(installed))} installed, ${packages} packages in its node_modules`);
	console.log(`installed CLI: --version ${version}; run --demo and spend ${process.exitCode ? 'FAILED' : 'worked'}`);
} finally {
	rmSync(scratch, {recursive: true, force: true});
}
