// What a stream of plain text (letters, spaces, '\n', '\r') means line by line, written the
// slow obvious way, one character at a time: the model the display tails are checked against
// however their input is chunked.

export class ReferenceStream {
	readonly complete: string[] = [];
	private partial = '';
	private carriageReturn = false;

	constructor(private readonly maxLines: number, private readonly maxLineLength: number) {}

	get total(): number {
		return this.complete.length;
	}

	/** Returns the lines `text` completed. */
	push(text: string): string[] {
		const completed: string[] = [];
		for (const character of text) {
			if (character === '\n') {
				completed.push(this.partialLine());
				this.partial = '';
				this.carriageReturn = false;
			} else if (character === '\r') {
				this.carriageReturn = true;
			} else {
				if (this.carriageReturn) {
					this.partial = '';
					this.carriageReturn = false;
				}
				this.partial += character;
			}
		}
		this.complete.push(...completed);
		return completed;
	}

	partialLine(): string {
		return this.partial.length > this.maxLineLength ? `${this.partial.slice(0, this.maxLineLength - 1)}…` : this.partial;
	}

	/** The kept complete lines, then the partial line when there is one. */
	lines(): string[] {
		const partial = this.partialLine();
		return [...this.complete.slice(-this.maxLines), ...(partial === '' ? [] : [partial])];
	}
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so a failure can be replayed. */
export function seededRandom(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** `lines` lines of up to `maxLength` characters, some with '\r' inside or '\r\n' endings. */
export function randomOutput(random: () => number, lines: number, maxLength: number): string {
	let text = '';
	for (let k = 0; k < lines; k++) {
		const length = Math.floor(random() * (maxLength + 1));
		for (let i = 0; i < length; i++) {
			const pick = random();
			text += pick < 0.05 ? '\r' : pick < 0.15 ? ' ' : String.fromCharCode(97 + Math.floor(pick * 26));
		}
		text += random() < 0.2 ? '\r\n' : '\n';
	}
	return text;
}

/** `text` cut into pieces of random sizes, from single characters to most of the text. */
export function randomSplits(random: () => number, text: string): string[] {
	const pieces: string[] = [];
	for (let at = 0; at < text.length; ) {
		const size = random() < 0.2 ? Math.floor(random() * text.length) + 1 : Math.floor(random() * 12) + 1;
		pieces.push(text.slice(at, at + size));
		at += size;
	}
	return pieces;
}
