// Every better-sqlite3 object a test worker makes (a test's own databases and statements, beside
// the reader's) is kept for the worker's life: better-sqlite3 12 aborts Node 24 when the garbage
// collector frees one while no context is entered (src/core/hermes/state-db/connections.ts), and
// tests open, fill and drop databases freely. Each statement is made by the native database's
// `prepare` (the JS prepare, pragma and transaction all call it), so keeping what it returns, and
// the database it is called on, keeps them all. Loaded once per worker, by setup.ts.
import Database from 'better-sqlite3';

type Native = {prepare: (...args: unknown[]) => unknown; exec: (...args: unknown[]) => unknown; close: () => unknown};
const registry = Symbol.for('hermes-delegate.tests.kept-sqlite-objects');
const global = globalThis as typeof globalThis & {[registry]?: Set<unknown>};

if (!global[registry]) {
	const kept = global[registry] = new Set<unknown>();
	const probe = new Database(':memory:');
	const native = Object.getOwnPropertySymbols(probe).map(symbol => (probe as unknown as Record<symbol, unknown>)[symbol]).find(value => typeof (value as Native | undefined)?.prepare === 'function') as Native;
	kept.add(probe).add(native);
	const prototype = Object.getPrototypeOf(native) as Native;
	const {prepare, exec, close} = prototype;
	prototype.prepare = function (this: Native, ...args) {
		const statement = prepare.apply(this, args);
		kept.add(this).add(statement);
		return statement;
	};

	prototype.exec = function (this: Native, ...args) {
		kept.add(this);
		return exec.apply(this, args);
	};

	prototype.close = function (this: Native) {
		kept.add(this);
		return close.apply(this);
	};
}
