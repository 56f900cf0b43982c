// Who belongs to a fleet, proved by keys rather than by reaching NATS: each runner host and each
// worker holds an Ed25519 private key of its own (made by `hermes-delegate fleet key`, given to
// it out of band as a file), and every member reads the same trust file, one line per member:
// `host NAME KEY` or `worker NAME KEY`, KEY the public half (hdk1:…). Asymmetric, one key per
// member, so that a worker's key cannot speak as a runner host (offer, grant, stop) nor as another
// worker (report on its attempts): docs/fleet-security.md says what that guards against.
// Both files are named by environment variables (never argv, which every local user sees in ps)
// or found at their default place in the home.
import {createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject} from 'node:crypto';
import {readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import {InputError, messageOf} from '../core/errors.js';
import {isSubjectToken} from './subjects.js';

export type FleetRole = 'host' | 'worker';
export const keyVariable = 'HERMES_DELEGATE_FLEET_KEY';
export const trustVariable = 'HERMES_DELEGATE_FLEET_TRUST';

/** A member as the trust file names it. */
export type Member = {role: FleetRole; name: string; id: string; key: KeyObject};
/** This process: its private key, and who the trust file says it is. */
export type Identity = {role: FleetRole; name: string; id: string; privateKey: KeyObject};

export function defaultFleetFiles(hermesHome: string): {key: string; trust: string} {
	const dir = path.join(hermesHome, 'delegate', 'fleet');
	return {key: path.join(dir, 'key.pem'), trust: path.join(dir, 'trust')};
}

export function fleetFiles(env: NodeJS.ProcessEnv, hermesHome: string): {key: string; trust: string} {
	const defaults = defaultFleetFiles(hermesHome);
	return {key: env[keyVariable] || defaults.key, trust: env[trustVariable] || defaults.trust};
}

/** A new private key (PKCS#8 PEM) and its public id, as the trust file writes it. */
export function newFleetKey(): {pem: string; id: string} {
	const {privateKey, publicKey} = generateKeyPairSync('ed25519');
	return {pem: privateKey.export({type: 'pkcs8', format: 'pem'}).toString(), id: publicIdOf(publicKey)};
}

export function publicIdOf(key: KeyObject): string {
	const jwk = key.export({format: 'jwk'});
	return `hdk1:${jwk.x!}`;
}

function publicKeyOf(id: string): KeyObject | undefined {
	const match = /^hdk1:([\w-]{43})$/.exec(id);
	if (!match) return undefined;
	try {
		return createPublicKey({key: {kty: 'OKP', crv: 'Ed25519', x: match[1]!}, format: 'jwk'});
	} catch {
		return undefined;
	}
}

const fixKey = `make one with \`hermes-delegate fleet key --role ROLE --name NAME\`, or name yours in $${keyVariable}`;

/** This process's key and the trust file it is listed in as `role` (the worker's --name, or any host). */
export function loadIdentity(files: {key: string; trust: string}, role: FleetRole, name?: string): {identity: Identity; trust: Trust} {
	let privateKey: KeyObject;
	try {
		privateKey = createPrivateKey(readFileSync(files.key));
	} catch (error) {
		throw new InputError(`cannot use this fleet key (${messageOf(error)}): every runner host and worker of a fleet signs what it sends with a key of its own`, {file: files.key}, `${fixKey}; docs/fleet-security.md`);
	}

	if (privateKey.asymmetricKeyType !== 'ed25519') throw new InputError('not an Ed25519 private key (a fleet key)', {file: files.key}, fixKey);
	if ((statSync(files.key).mode & 0o077) !== 0) {
		throw new InputError('other users can read this fleet key', {file: files.key}, `chmod 600 ${files.key}`);
	}

	const id = publicIdOf(createPublicKey(privateKey));
	const trust = Trust.load(files.trust);
	const me = trust.member(id);
	const line = `${role} ${name ?? 'NAME'} ${id}`;
	if (!me || me.role !== role || (name !== undefined && me.name !== name)) {
		const listed = me ? `it lists this key as ${me.role} ${me.name}` : 'it does not list this key';
		throw new InputError(`the fleet's trust file: ${listed}, and this process is ${role === 'worker' ? `worker ${name ?? '?'}` : 'a runner host'}`, {file: files.trust}, `add the line \`${line}\` to the trust file of every runner host and worker of the fleet (or use the key made for this member)`);
	}

	return {identity: {role, name: me.name, id, privateKey}, trust};
}

/** The trust file, looked at again (at most once a second) when it changed: a member added or removed needs no restart. */
export class Trust {
	private members = new Map<string, Member>();
	private readAt = 0;
	private mtimeMs = -1;

	private constructor(private readonly file: string) {}

	static load(file: string): Trust {
		const trust = new Trust(file);
		trust.read(true);
		return trust;
	}

	member(id: string): Member | undefined {
		if (Date.now() - this.readAt >= 1000) this.read(false);
		return this.members.get(id);
	}

	private read(strict: boolean): void {
		this.readAt = Date.now();
		let text: string;
		try {
			const {mtimeMs} = statSync(this.file);
			if (mtimeMs === this.mtimeMs) return;
			text = readFileSync(this.file, 'utf8');
			this.mtimeMs = mtimeMs;
		} catch (error) {
			if (strict) throw new InputError(`cannot read the fleet's trust file (${messageOf(error)})`, {file: this.file}, `write the fleet's members there, one \`host NAME KEY\` or \`worker NAME KEY\` a line (\`hermes-delegate fleet key\` prints each), or name the file in $${trustVariable}`);
			return;
		}

		const members = new Map<string, Member>();
		for (const [index, raw] of text.split('\n').entries()) {
			const line = raw.replace(/#.*/, '').trim();
			if (line === '') continue;
			const [role, name, id, extra] = line.split(/\s+/);
			const key = id === undefined ? undefined : publicKeyOf(id);
			if ((role !== 'host' && role !== 'worker') || name === undefined || !isSubjectToken(name) || !key || extra !== undefined) {
				if (strict) throw new InputError('not a member line of a fleet trust file', {file: this.file, line: index + 1}, 'write `host NAME KEY` or `worker NAME KEY` (NAME: letters, digits, _ and -; KEY as `hermes-delegate fleet key` prints it)');
				continue;
			}

			members.set(id!, {role, name, id: id!, key});
		}

		this.members = members;
	}
}
