// Complete lines kept as the bytes they arrived in and decoded the first time somebody reads them:
// under a flood the zoom's scrollback is read rarely and a pane's last lines a few times a second,
// so most of a flood's kept lines never need decoding at all (output-tail.ts pushRawLines).
import type {LineBlock} from './line-blocks.js';

/**
 * Raw complete lines of one stretch of a stream, in runs (stderr lines may sit between them in a
 * merged view). Decoded together, in order, as one fresh stream the first time any run is read.
 */
export class RawLines {
	private readonly runs: Array<{raw: Buffer; count: number}> = [];
	private decoded: string[] | undefined;

	/** `decode`: the runs' bytes, in order, decoded as one fresh stream into their `total` lines. */
	constructor(private readonly decode: (raws: readonly Buffer[], total: number) => string[]) {}

	/** Adds a run; its block is what the tail keeps. */
	block(raw: Buffer, count: number): LineBlock {
		this.runs.push({raw, count});
		return new RawLineBlock(this, this.runs.length - 1, count, raw.length);
	}

	textOf(run: number): string {
		if (this.decoded === undefined) {
			const total = this.runs.reduce((sum, {count}) => sum + count, 0);
			const lines = this.decode(this.runs.map(({raw}) => raw), total);
			let at = 0;
			this.decoded = this.runs.map(({count}) => {
				const text = lines.slice(at, at + count).join('\n');
				at += count;
				return text;
			});
			this.runs.length = 0;
		}

		return this.decoded[run]!;
	}
}

class RawLineBlock implements LineBlock {
	readonly crlf = false;

	constructor(private readonly lines: RawLines, private readonly run: number, readonly count: number, readonly size: number) {}

	get text(): string {
		return this.lines.textOf(this.run);
	}
}
