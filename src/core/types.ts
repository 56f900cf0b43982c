// The vocabulary of hermes-delegate, defined once in core/types/, one file per idea: routes (and
// their edits and settings), plan (tasks and their routes), status, events, results, spend, and
// what Hermes can do. Kept as the index every layer imports from, so that saying one thing needs
// one import; a reader looks a word up in the file of its idea.
export * from './types/routes.js';
export type * from './types/plan.js';
export * from './types/status.js';
export type * from './types/events.js';
export * from './types/results.js';
export type * from './types/spend.js';
export type * from './types/hermes.js';
