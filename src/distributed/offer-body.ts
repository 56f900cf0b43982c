// An offer too large for one NATS message (a goal of a megabyte; max_payload is 1 MiB by default):
// its JSON goes in pieces into the batch's stream, and the offers' stream gets a sealed reference to
// it instead (how many pieces, and the SHA-256 of the whole), which a worker follows to read
// them back. The reference is what the runner host signed; the pieces need no seal of their own:
// anything else than what it hashed is refused.
import {createHash} from 'node:crypto';
import {z} from 'zod';
import type {Nats} from './connection.js';
import {encodeMessage, messageVersion, offerSchema, parseMessage, type TaskOffer} from './messages.js';
import {batchStream, offerBodySubject} from './subjects.js';

/** The offers' stream carries this instead of an offer too large for it. */
export const offerReferenceSchema = z.strictObject({
	v: z.literal(messageVersion),
	batch: z.string().regex(/^[\w-]{1,100}$/),
	taskId: z.string().regex(/^[\w-]{1,100}$/),
	attempt: z.number().int().positive().max(999_999),
	pieces: z.number().int().min(1).max(256),
	bytes: z.number().int().positive(),
	sha256: z.string().regex(/^[\da-f]{64}$/),
});
export type OfferReference = z.infer<typeof offerReferenceSchema>;

/** Room for the seal, the message id header and the server's framing. */
const headroom = 8 * 1024;

/** The offer as the offers' stream takes it: itself, sealed, if it fits; else its body stored in pieces and a sealed reference. */
export async function offerMessage(nats: Nats, subject: string, offer: TaskOffer): Promise<Uint8Array> {
	const sealed = nats.signer.seal(subject, offer).bytes;
	const limit = nats.maxPayload - headroom;
	if (sealed.length <= limit) return sealed;
	const json = encodeMessage(offer);
	const count = Math.ceil(json.length / limit);
	for (let index = 0; index < count; index++) {
		const id = `${offer.batch}.${offer.task.id}.${offer.attempt}.body.${index}`;
		await nats.js.publish(offerBodySubject(offer.batch, offer.task.id, offer.attempt, index), json.subarray(index * limit, (index + 1) * limit), {msgID: id, timeout: 5000});
	}

	const reference: OfferReference = {v: messageVersion, batch: offer.batch, taskId: offer.task.id, attempt: offer.attempt, pieces: count, bytes: json.length, sha256: createHash('sha256').update(json).digest('hex')};
	return nats.signer.seal(subject, reference).bytes;
}

/** The offer a reference names, read back from the batch's stream; or why not. */
export async function followReference(nats: Nats, reference: OfferReference): Promise<{ok: true; offer: TaskOffer} | {ok: false; why: string}> {
	const parts: Uint8Array[] = [];
	let bytes = 0;
	for (let index = 0; index < reference.pieces; index++) {
		const stored = await nats.manager.streams.getMessage(batchStream(reference.batch).name, {last_by_subj: offerBodySubject(reference.batch, reference.taskId, reference.attempt, index)});
		if (!stored) return {ok: false, why: `piece ${index} of its body is not in the batch's stream`};
		bytes += stored.data.length;
		if (bytes > reference.bytes) return {ok: false, why: 'its body is larger than its reference says'};
		parts.push(stored.data);
	}

	const json = Buffer.concat(parts);
	if (createHash('sha256').update(json).digest('hex') !== reference.sha256) return {ok: false, why: 'its body is not what the runner host signed (SHA-256 differs)'};
	const parsed = parseMessage(offerSchema, json);
	if (!parsed.ok) return {ok: false, why: parsed.why};
	const {batch, task, attempt} = parsed.value;
	if (batch !== reference.batch || task.id !== reference.taskId || attempt !== reference.attempt) return {ok: false, why: 'its body is another attempt\'s'};
	return {ok: true, offer: parsed.value};
}
