// The fake agent is steered by `[fake:KEY]` / `[fake:KEY=VALUE]` anywhere in its prompt, because
// the prompt is the only thing that travels unchanged from a task file through the real launcher.

export type Directives = {
	has(key: string): boolean;
	text(key: string): string | undefined;
	/** A non-negative number, or the fallback when absent or not a number. */
	number(key: string, fallback: number): number;
	/** The prompt with every directive removed, for plausible output. */
	readonly goal: string;
};

const pattern = /\[fake:([a-z][a-z0-9-]*)(?:=([^\]]*))?\]/gi;

export function parseDirectives(prompt: string): Directives {
	const values = new Map<string, string | true>();
	for (const match of prompt.matchAll(pattern)) {
		const key = match[1]!.toLowerCase();
		values.set(key, match[2]?.trim() ?? true);
	}

	// The launcher appends "Context:" and the demo's context holds only directives: drop the husk.
	const goal = prompt
		.replace(pattern, '')
		.replaceAll(/\s+/g, ' ')
		.replace(/\s*Context:\s*$/, '')
		.trim();
	return {
		has: (key) => values.has(key),
		text(key) {
			const value = values.get(key);
			return typeof value === 'string' ? value : undefined;
		},
		number(key, fallback) {
			const raw = values.get(key);
			const value = typeof raw === 'string' && raw !== '' ? Number(raw) : Number.NaN;
			return Number.isFinite(value) && value >= 0 ? value : fallback;
		},
		goal,
	};
}
