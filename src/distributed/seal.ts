// Every message of the fleet travels sealed: the body, the subject it was meant for, when and a
// nonce, signed with the sender's fleet key (fleet-key.ts). The receiver believes a message only
// when the signature holds under a key its trust file lists, in the role the subject calls for,
// and on the subject it arrived on (a message moved to another attempt's subject is refused).
// Replay: a request or reply on plain NATS (claims, grants, stops and their answers, pings'
// answers) must be fresh (its time within `clockSkewMs` of ours) and its nonce unseen (Replays);
// a report is kept in its attempt's seq order (report-stream.ts); an advertisement must be newer
// than the last one of its worker (fleet.ts); an offer only leads to work through a fresh grant.
import {randomBytes, sign, verify} from 'node:crypto';
import {z} from 'zod';
import type {FleetRole, Identity, Member, Trust} from './fleet-key.js';

/** How far the clocks of a fleet's hosts may disagree: a fresh message is at most this old (or early). */
export const clockSkewMs = 5 * 60_000;

const envelopeSchema = z.strictObject({hd: z.literal(1), signed: z.string(), sig: z.string().max(200)});
const signedSchema = z.strictObject({subject: z.string().max(1000), key: z.string().max(100), at: z.number(), nonce: z.string().max(64), body: z.unknown()});

export type Opened = {body: unknown; from: Member; at: number; nonce: string};

/** `body` sealed for `subject` by `identity`; nonce: the one a reply names to say what it answers. */
export function seal(identity: Identity, subject: string, body: unknown): {bytes: Uint8Array; nonce: string} {
	const nonce = randomBytes(12).toString('base64url');
	const signed = JSON.stringify({subject, key: identity.id, at: Date.now(), nonce, body});
	const sig = sign(null, Buffer.from(signed), identity.privateKey).toString('base64url');
	return {bytes: new TextEncoder().encode(JSON.stringify({hd: 1, signed, sig})), nonce};
}

/** The subject a reply to a request on `subject` is sealed for (a reply's own subject is the asker's inbox). */
export function replyTo(subject: string): string {
	return `reply:${subject}`;
}

/** The body, if `bytes` is a message sealed for `subject` by a member in `role`; else why not. */
export function unseal(trust: Trust, role: FleetRole, subject: string, bytes: Uint8Array): {ok: true; value: Opened} | {ok: false; why: string} {
	let envelope: z.infer<typeof envelopeSchema>;
	let signed: z.infer<typeof signedSchema>;
	try {
		envelope = envelopeSchema.parse(JSON.parse(new TextDecoder('utf-8', {fatal: true}).decode(bytes)));
		signed = signedSchema.parse(JSON.parse(envelope.signed));
	} catch {
		return {ok: false, why: 'not sealed with a fleet key (an unsigned or malformed message)'};
	}

	const from = trust.member(signed.key);
	if (!from) return {ok: false, why: `signed by ${signed.key.slice(0, 20)}…, a key the fleet's trust file does not list`};
	if (!verify(null, Buffer.from(envelope.signed), from.key, Buffer.from(envelope.sig, 'base64url'))) {
		return {ok: false, why: `its signature does not hold for ${from.role} ${from.name}'s key (forged or altered)`};
	}

	if (from.role !== role) return {ok: false, why: `sent by ${from.role} ${from.name}, and only a ${role === 'host' ? 'runner host' : 'worker'} may send it`};
	if (signed.subject !== subject) return {ok: false, why: `sealed for ${signed.subject}, not for ${subject} (moved from elsewhere)`};
	return {ok: true, value: {body: signed.body, from, at: signed.at, nonce: signed.nonce}};
}

const maxRemembered = 100_000;

/** Nonces seen within the clock-skew window: a request or reply heard twice is a replay. */
export class Replays {
	private readonly seen = new Map<string, number>();

	/** undefined when `opened` is fresh and new (and remembers it); else why it is refused. */
	check(opened: Opened): string | undefined {
		const now = Date.now();
		if (Math.abs(now - opened.at) > clockSkewMs) return `stale or from the future (sent ${Math.round((now - opened.at) / 1000)} s ago by its clock; the fleet's clocks must agree within ${clockSkewMs / 60_000} min)`;
		const key = `${opened.from.id}/${opened.nonce}`;
		if (this.seen.has(key)) return 'a replay (its nonce was seen before)';
		this.seen.set(key, opened.at);
		if (this.seen.size > 1000) {
			for (const [old, at] of this.seen) if (now - at > 2 * clockSkewMs) this.seen.delete(old);
			// A flood of fresh ones: the oldest go (a replay of those is then refused only if stale).
			for (const old of this.seen.keys()) {
				if (this.seen.size <= maxRemembered) break;
				this.seen.delete(old);
			}
		}

		return undefined;
	}
}

export type Received<T> = {ok: true; value: T; from: Member; nonce: string; at: number} | {ok: false; why: string};

/** This member's seal and the fleet's trust: what every sender and receiver of the fleet holds. */
export class Signer {
	private readonly replays = new Replays();

	constructor(readonly identity: Identity, readonly trust: Trust) {}

	seal(subject: string, body: unknown): {bytes: Uint8Array; nonce: string} {
		return seal(this.identity, subject, body);
	}

	/**
	 * `bytes` opened and parsed with `schema`, if a member in `role` sealed it for `subject`;
	 * fresh: a request or reply, refused when stale or heard before.
	 */
	open<T extends z.ZodType>(schema: T, role: FleetRole, subject: string, bytes: Uint8Array, options: {fresh?: boolean} = {}): Received<z.output<T>> {
		const opened = unseal(this.trust, role, subject, bytes);
		if (!opened.ok) return opened;
		const replay = options.fresh ? this.replays.check(opened.value) : undefined;
		if (replay) return {ok: false, why: `from ${opened.value.from.role} ${opened.value.from.name}, but ${replay}`};
		const parsed = schema.safeParse(opened.value.body);
		if (!parsed.success) return {ok: false, why: z.prettifyError(parsed.error).replaceAll('\n', '; ').slice(0, 500)};
		return {ok: true, value: parsed.data, from: opened.value.from, nonce: opened.value.nonce, at: opened.value.at};
	}
}
