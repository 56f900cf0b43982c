// Reports larger than one NATS message (the server's max_payload, 1 MiB by default): a finished
// report with a long answer, above all. The worker sends the answer once (not again as `result`),
// and a report still too large goes as pieces of its JSON, each sealed and numbered within the
// report's own seq; the runner host puts them together (Pieces) before the report takes its place
// in the attempt's order, holding at most maxPieceBytes of unfinished ones.
import {maxPieces, messageVersion, parseMessage, reportSchema, type AttemptReport, type PieceReport} from './messages.js';

/** Raw bytes of the unfinished pieces a runner host holds, over all attempts of a batch. */
export const maxPieceBytes = 96 * 1024 * 1024;

/** The report as it travels: a finished one's result not twice. */
export function sentForm(report: AttemptReport): AttemptReport {
	if (report.kind !== 'finished' || report.result.result !== report.result.answer || report.result.answer === '') return report;
	return {...report, result: {...report.result, result: ''}, resultIsAnswer: true};
}

/** The report as it was before sentForm(). */
export function receivedForm(report: AttemptReport): AttemptReport {
	if (report.kind !== 'finished' || !report.resultIsAnswer) return report;
	const {resultIsAnswer: _, ...rest} = report;
	return {...rest, result: {...report.result, result: report.result.answer}};
}

/** `json` (the report's) in pieces that each fit `limit` bytes once sealed (base64 and the seal's fields). */
export function piecesOf(json: Uint8Array, report: AttemptReport, limit: number): PieceReport[] {
	const size = Math.max(1024, Math.floor(((limit - 2048) * 3) / 4));
	const count = Math.ceil(json.length / size);
	if (count > maxPieces) throw new Error(`a report of ${json.length} bytes is more than ${maxPieces} pieces`);
	return Array.from({length: count}, (_, index) => ({
		v: messageVersion, seq: report.seq, worker: report.worker, kind: 'piece', index, count,
		data: Buffer.from(json.subarray(index * size, (index + 1) * size)).toString('base64'),
		...(report.kind === 'finished' && report.recovered ? {recovered: true as const} : {}),
	}));
}

/** The runner host's half: pieces kept per report until all are there. */
export class Pieces {
	private readonly partial = new Map<string, {count: number; parts: Map<number, Buffer>}>();
	private bytes = 0;

	constructor(private readonly log: (line: string) => void) {}

	/** The whole report once this piece completes it (and it is what the pieces said); else undefined. */
	add(where: string, piece: PieceReport): AttemptReport | undefined {
		const key = `${where}/${piece.seq}/${piece.recovered ? 'r' : ''}`;
		let entry = this.partial.get(key);
		if (!entry) {
			entry = {count: piece.count, parts: new Map()};
			this.partial.set(key, entry);
		}

		const data = Buffer.from(piece.data, 'base64');
		if (piece.count !== entry.count || piece.index >= entry.count || entry.parts.has(piece.index)) return undefined;
		if (this.bytes + data.length > maxPieceBytes) {
			this.log(`dropped piece ${piece.index} of report ${piece.seq} of ${where}: more than ${maxPieceBytes / (1024 * 1024)} MiB of unfinished reports are held`);
			return undefined;
		}

		entry.parts.set(piece.index, data);
		this.bytes += data.length;
		if (entry.parts.size < entry.count) return undefined;
		this.partial.delete(key);
		const whole = Buffer.concat([...entry.parts].sort(([a], [b]) => a - b).map(([, part]) => part));
		this.bytes -= whole.length;
		const parsed = parseMessage(reportSchema, whole);
		if (!parsed.ok || parsed.value.kind === 'piece' || parsed.value.seq !== piece.seq || parsed.value.worker !== piece.worker) {
			this.log(`ignored report ${piece.seq} of ${where} put together from its pieces: ${parsed.ok ? 'not the report its pieces named' : parsed.why}`);
			return undefined;
		}

		return parsed.value;
	}
}
