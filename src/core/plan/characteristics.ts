// What kind of work a goal is, from its words. The table is configurable in delegate.yaml
// (characteristic_words) because the words that matter differ between teams.

export const defaultCharacteristicWords: Readonly<Record<string, readonly string[]>> = {
	coding: ['implement', 'fix', 'refactor', 'test', 'tests', 'code', 'bug', 'debug', 'function', 'compile', 'script', 'typescript', 'python', 'api'],
	research: ['research', 'find', 'compare', 'summarize', 'summarise', 'investigate', 'survey', 'sources', 'literature', 'search'],
	quick: ['what', 'who', 'when', 'capital', 'quick', 'define', 'lookup', 'convert', 'translate', 'list'],
	reasoning: ['explain', 'why', 'prove', 'reason', 'analyze', 'analyse', 'derive', 'plan', 'design', 'tradeoffs', 'architecture'],
	creative: ['poem', 'story', 'creative', 'brainstorm', 'slogan', 'haiku', 'lyrics', 'names'],
};

export type InferredCharacteristic = {value: string; from: string};

/** Lower-cased word tokens; shared with route matching so both read goals the same way. */
export function words(text: string): string[] {
	return text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_-]*/gu) ?? [];
}

/**
 * The characteristic whose words appear earliest in the goal. Earliest wins over most
 * frequent because goals lead with their verb ("Implement X and research Y" is coding).
 */
export function inferCharacteristic(goal: string, table: Readonly<Record<string, readonly string[]>>): InferredCharacteristic | undefined {
	const tokens = words(goal);
	for (const token of tokens) {
		for (const [characteristic, triggers] of Object.entries(table)) {
			if (triggers.includes(token)) {
				return {value: characteristic, from: token};
			}
		}
	}

	return undefined;
}
