// `hermes-delegate fleet key --role host|worker --name NAME`: a fleet member's private key,
// written where that member reads it (its home's delegate/fleet/key.pem, or --out FILE), readable
// by this user only, and never printed; the line the fleet's trust file needs for it is printed
// instead (distributed/fleet-key.ts, docs/fleet-security.md).
import {existsSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {z} from 'zod';
import {makeFolder, resolveHermesHome} from '../core/hermes/home.js';
import {InputError, messageOf} from '../core/errors.js';
import {fleetFiles, newFleetKey, trustVariable} from '../distributed/fleet-key.js';
import {isSubjectToken} from '../distributed/subjects.js';
import type {CommandIO} from './io.js';

export const fleetKeyOptions = z.strictObject({role: z.string(), name: z.string(), out: z.string().optional()});

export async function fleetKeyCommand(options: z.infer<typeof fleetKeyOptions>, io: CommandIO): Promise<number> {
	if (options.role !== 'host' && options.role !== 'worker') throw new InputError(`--role ${options.role}: a fleet member is a host (a runner host: run, tui) or a worker`, {}, 'pass --role host or --role worker');
	if (!isSubjectToken(options.name)) throw new InputError(`--name "${options.name}": letters, digits, _ and - only, at most 100`, {}, options.role === 'worker' ? 'the name the worker runs with (worker --name)' : 'e.g. --name laptop');
	const file = path.resolve(options.out ?? fleetFiles(io.env, resolveHermesHome(io.env)).key);
	if (existsSync(file)) throw new InputError(`${file} exists: a member's key is never overwritten (its trust line would stop matching)`, {file}, 'pass --out FILE for a new file, or remove the old key and its trust line first');
	const {pem, id} = newFleetKey();
	try {
		makeFolder(path.dirname(file), 'pass --out FILE in a folder this user can write');
		writeFileSync(file, pem, {mode: 0o600, flag: 'wx'});
	} catch (error) {
		throw new InputError(`${file}: cannot write the key (${messageOf(error)})`, {file}, 'pass --out FILE in a folder this user can write');
	}

	io.stderr.write(`hermes-delegate: wrote ${options.role} ${options.name}'s private key to ${file} (readable by this user only; copy it only to that member, as a file)\n`);
	io.stderr.write(`hermes-delegate: add this line to the trust file of every runner host and worker of the fleet (default $HERMES_HOME/delegate/fleet/trust, or the file in $${trustVariable}):\n`);
	io.stdout.write(`${options.role} ${options.name} ${id}\n`);
	return 0;
}
