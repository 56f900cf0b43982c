// Where everything of the distributed path lives on NATS. Every subject a batch uses starts with
// `hd.<batchId>.`, so two batches on one server never read each other's messages, and a worker
// pulls the offers of every batch from one work-queue stream.

/** The work-queue stream that holds task offers until one worker has taken (acked) each. */
export const offerStream = 'HD_OFFERS';
/** The one durable pull consumer every worker shares: a work queue hands each offer to one of them. */
export const offerConsumer = 'hd-workers';
/** The KV bucket where each live worker keeps its advertisement; entries expire without heartbeats. */
export const workerBucket = 'hd-workers';

/** A batch id is a run id (`20261202-130000-abc123`): a subject token, never a wildcard or a dot. */
const tokenPattern = /^[\w-]{1,100}$/;

export function isSubjectToken(value: string): boolean {
	return tokenPattern.test(value);
}

export const offerSubjects = 'hd.*.offer';

export function offerSubject(batchId: string): string {
	return `hd.${checked(batchId)}.offer`;
}

/**
 * One attempt's subjects: where a worker claims it (the runner host grants one claim per attempt,
 * so an offer JetStream redelivers after a worker was lost never runs twice), what the worker
 * tells (events) and prints (output), and where it hears a stop.
 */
export type AttemptSubjects = {claim: string; events: string; output: string; cancel: string};

export function attemptSubjects(batchId: string, taskId: string, attempt: number): AttemptSubjects {
	const base = `hd.${checked(batchId)}.task.${checked(taskId)}.${attempt}`;
	return {claim: `${base}.claim`, events: `${base}.events`, output: `${base}.output`, cancel: `${base}.cancel`};
}

/** Every subject of one batch's tasks, for a subscriber that watches the batch as a whole. */
export function batchTaskSubjects(batchId: string): string {
	return `hd.${checked(batchId)}.task.>`;
}

function checked(token: string): string {
	if (!isSubjectToken(token)) throw new Error(`"${token}" cannot be a NATS subject token (letters, digits, _ and - only)`);
	return token;
}
