// Complete lines kept as blocks of text instead of one string per line. Under a flood a
// task prints hundreds of thousands of lines a second while a pane reads ~40 of them a few
// times a second, so lines are split out only when someone reads them.

/** `count` complete lines joined by '\n' (no trailing newline). */
export type LineBlock = {
	readonly text: string;
	readonly count: number;
	/** Some lines end in the '\r' of a '\r\n' ending, to be dropped when split out. */
	readonly crlf: boolean;
	/** Size to count for the memory bound without reading `text` (a block decoded only when read). */
	readonly size?: number;
};

/**
 * The newest blocks holding at least `maxLines` lines. Whole blocks are forgotten from the
 * front, so up to one block's lines more than `maxLines` may be held; reads return at most
 * `maxLines`. Memory is bounded by what the writer puts into a block: with lines of at most
 * L characters and blocks of at most B lines, the text held is under (maxLines + B) × (L + 2).
 */
export class LineBlocks {
	private blocks: LineBlock[] = [];
	/** Index of the oldest kept block; the array is compacted now and then, not per eviction. */
	private head = 0;
	private kept = 0;
	private total = 0;
	private chars = 0;

	constructor(private readonly maxLines: number) {}

	add(block: LineBlock): void {
		if (block.count === 0) {
			return;
		}
		this.blocks.push(block);
		this.kept += block.count;
		this.total += block.count;
		this.chars += sizeOf(block);
		let oldest = this.blocks[this.head]!;
		while (this.head < this.blocks.length - 1 && this.kept - oldest.count >= this.maxLines) {
			this.kept -= oldest.count;
			this.chars -= sizeOf(oldest);
			this.head++;
			oldest = this.blocks[this.head]!;
		}
		if (this.head > 64 && this.head * 2 > this.blocks.length) {
			this.blocks = this.blocks.slice(this.head);
			this.head = 0;
		}
	}

	/** Lines that passed without being kept at all (never decoded: see TaskOutput): counted only. */
	skip(count: number): void {
		this.total += count;
	}

	/** Every line ever added, including those no longer kept. */
	get totalLines(): number {
		return this.total;
	}

	/** Lines a read can return: at most maxLines. */
	get length(): number {
		return Math.min(this.kept, this.maxLines);
	}

	/** Characters of text held, to check the memory bound. */
	get keptChars(): number {
		return this.chars;
	}

	/** The newest `count` lines (at most `length`), oldest first. */
	last(count: number): string[] {
		let need = Math.min(Math.floor(count), this.length);
		const parts: string[][] = [];
		for (let k = this.blocks.length - 1; need > 0 && k >= this.head; k--) {
			const block = this.blocks[k]!;
			const lines = need >= block.count ? splitBlock(block, block.text) : lastOf(block, need);
			parts.push(lines);
			need -= lines.length;
		}
		return parts.length === 1 ? parts[0]! : parts.reverse().flat();
	}

	/** The kept lines newest first, cut out one at a time: for searches that stop early. */
	*newestFirst(): Generator<string> {
		let left = this.length;
		for (let k = this.blocks.length - 1; left > 0 && k >= this.head; k--) {
			const block = this.blocks[k]!;
			let end = block.text.length;
			for (let i = block.count - 1; i >= 0 && left > 0; i--, left--) {
				const start = block.text.lastIndexOf('\n', end - 1) + 1;
				const line = block.text.slice(start, end);
				yield block.crlf && line.endsWith('\r') ? line.slice(0, -1) : line;
				end = start - 1;
			}
		}
	}
}

function sizeOf(block: LineBlock): number {
	return block.size ?? block.text.length;
}

/** The last `count` lines of a block holding more than `count`. */
function lastOf(block: LineBlock, count: number): string[] {
	let at = block.text.length;
	for (let found = 0; found < count; found++) {
		at = block.text.lastIndexOf('\n', at - 1);
	}
	return splitBlock(block, block.text.slice(at + 1));
}

function splitBlock(block: LineBlock, text: string): string[] {
	const lines = text.split('\n');
	if (block.crlf) {
		for (let i = 0; i < lines.length; i++) {
			const line = lines[i]!;
			if (line.endsWith('\r')) {
				lines[i] = line.slice(0, -1);
			}
		}
	}
	return lines;
}
