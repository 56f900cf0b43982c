// What kind of work a goal is, from its words. The table comes from delegate.yaml
// (characteristic_words; its default is in config/settings.ts).

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
