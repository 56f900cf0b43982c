// What the spend hermes-delegate shows is: Hermes's own record of each session (its home's
// state.db), so never more than Hermes counted. Hermes's records leave calls out (docs/hermes-releases.md
// "Spend is a lower bound"): auxiliary calls such as a session title or a --max-turns summary
// (recorded: the summary's usage never reaches the session row), retries of a failed call, calls
// that went to a fallback provider, and cache writes. So every figure is a lower bound, and a cost
// is Hermes's estimate where cost_status says `estimated`.

/** One line for the spend table's legend (the `$` overlay and `hermes-delegate spend`). */
export const lowerBoundNote = 'All figures are a lower bound: Hermes\'s own records (state.db), which leave out auxiliary calls (titles, summaries), retries, fallbacks and cache writes; a cost marked ~ is Hermes\'s estimate (cost_status).';

/** What `spend --json` and the results say the spend is. */
export const spendBasis = {
	bound: 'lower',
	source: 'Hermes\'s state.db, one sessions row per attempt (its token and cost analytics)',
	leaves_out: ['auxiliary calls (session titles, summaries)', 'retries of failed calls', 'calls to fallback providers', 'cache writes'],
	cost: 'Hermes\'s estimate where cost_status is "estimated"; actual where Hermes has it; none where cost_status is "unknown"',
} as const;
