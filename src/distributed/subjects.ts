// Where everything of the distributed path lives on NATS. Every subject a batch uses starts with
// `hd.<batchId>.`, so two batches on one server never read each other's messages, and every
// worker reads the offers of every batch from one stream, through a consumer of its own.

/** The stream that holds task offers until their runner host has granted each (then it deletes it). */
export const offerStream = 'HD_OFFERS';

/**
 * Each worker's own durable consumer of the offers: every worker sees every offer, takes those it
 * can run and leaves the others (acked: it is done with them), and the runner host grants each
 * attempt to the first claim. A work queue shared by all workers, as before, hands an offer a
 * worker left back to the oldest waiting pull — often that same worker: two workers each holding
 * the other's task swapped them back and forth for many seconds (11.9 s measured
 * with test/distributed/worker-return.test.ts's workers started the other way round).
 */
export function offerConsumerOf(worker: string): string {
	return `hd-worker-${checked(worker)}`;
}
/** The KV bucket where each live worker keeps its advertisement; entries expire without heartbeats. */
export const workerBucket = 'hd-workers';

/** A batch id is a run id (`20261202-130000-abc123`): a subject token, never a wildcard or a dot. */
const tokenPattern = /^[\w-]{1,100}$/;

export function isSubjectToken(value: string): boolean {
	return tokenPattern.test(value);
}

export const offerSubjects = 'hd.*.offer';

/** Where replies to a member come: one prefix per role, so a server can keep each role's replies from the other. */
export function inboxPrefixOf(role: 'host' | 'worker'): string {
	return `_INBOX_hd_${role}`;
}

/** The subject an advertisement in the KV bucket is sealed for. */
export function advertisementSubject(worker: string): string {
	return `kv:${workerBucket}.${checked(worker)}`;
}

/** Every live worker answers a request here with its advertisement: a runner host finds the fleet at once. */
export const workerPingSubject = 'hd.workers.ping';

export function offerSubject(batchId: string): string {
	return `hd.${checked(batchId)}.offer`;
}

/**
 * One attempt's subjects: where a worker claims it (the runner host grants one claim per attempt,
 * so an offer JetStream redelivers after a worker was lost never runs twice), where it reports
 * (events, output and the result, kept in the batch's stream: report.ts), and where it hears a
 * stop. claim and cancel are request/reply on plain NATS: they must not be in a stream (a stream
 * would answer the request itself).
 */
export type AttemptSubjects = {claim: string; cancel: string; report: string};

export function attemptSubjects(batchId: string, taskId: string, attempt: number): AttemptSubjects {
	const base = `hd.${checked(batchId)}.task.${checked(taskId)}.${attempt}`;
	return {claim: `${base}.claim`, cancel: `${base}.cancel`, report: `hd.${batchId}.report.${taskId}.${attempt}`};
}

/**
 * The batch's stream: every report of its attempts, and the bodies of offers too large for one
 * message (offer-body.ts), kept until the batch has ended (the runner host deletes it then).
 */
export function batchStream(batchId: string): {name: string; subjects: string; bodies: string} {
	return {name: `HD_BATCH_${checked(batchId)}`, subjects: `hd.${batchId}.report.>`, bodies: `hd.${batchId}.body.>`};
}

/** Where piece `index` of an offer's body waits for its worker. */
export function offerBodySubject(batchId: string, taskId: string, attempt: number, index: number): string {
	return `hd.${checked(batchId)}.body.${checked(taskId)}.${attempt}.${index}`;
}

/** task id and attempt of a report subject of `batchId`; undefined for anything else. */
export function reportOf(batchId: string, subject: string): {taskId: string; attempt: number} | undefined {
	const match = /^hd\.([\w-]+)\.report\.([\w-]+)\.([1-9]\d{0,5})$/.exec(subject);
	return match && match[1] === batchId ? {taskId: match[2]!, attempt: Number(match[3])} : undefined;
}

function checked(token: string): string {
	if (!isSubjectToken(token)) throw new Error(`"${token}" cannot be a NATS subject token (letters, digits, _ and - only)`);
	return token;
}
