// Tokens and spend: as Hermes reports them for one session, and summed over attempts.
/** Token counts as Hermes reports them (stream-json `result.tokens`); a task whose counts are unknown has null, never zeros. */
export type TokenCounts = {input: number; output: number; total: number; cache_read: number; cache_write: number};

/** The counts one session's spend and a sum of them share; null is unknown, never 0. */
export type SpendCounts = {
	input_tokens: number | null;
	output_tokens: number | null;
	cache_read_tokens: number | null;
	cache_write_tokens: number | null;
	reasoning_tokens: number | null;
	api_calls: number | null;
	tool_calls: number | null;
	cost_usd: number | null;
};

/**
 * What one session spent, as Hermes recorded it in its home's state.db (`sessions` row; docs/spend.md
 * "Spend"). null is unknown, never 0: a row Hermes has not finished (tokens and API calls are
 * written when the turn ends; an interrupted turn keeps zeros) gives null counts, and cost is null
 * where Hermes has no price (cost_status says why). tool_calls counts live, so it is known earlier.
 */
export type Spend = SpendCounts & {
	/** Hermes's own word: `unknown` (no price for that provider), `estimated`, ...; null when no row was read. */
	cost_status: string | null;
	/** The model the session ran on. */
	model: string | null;
	billing_provider: string | null;
};

/**
 * Sums of Spend over attempts. Each number sums only the attempts where it is known (null when none
 * is); unknown_attempts counts the attempts that ran whose counts are unknown, so a sum with
 * unknown_attempts > 0 is a lower bound. unpriced_attempts: counts known but no cost.
 */
export type SpendSum = SpendCounts & {
	attempts: number;
	unknown_attempts: number;
	unpriced_attempts: number;
};

export type SpendTotals = {total: SpendSum; by_route: Record<string, SpendSum>; by_model: Record<string, SpendSum>};
