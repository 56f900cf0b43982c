// The one-line live progress display `run` draws on stderr when stderr is a terminal.
// Redrawn at a capped rate, never per output line, and erased before the JSON is printed.
import type {BatchEvent, TaskStatus} from '../core/types.js';

export type ProgressLine = {onEvent(event: BatchEvent): void; stop(): void};

export function startProgressLine(stream: NodeJS.WriteStream, total: number, options: {color: boolean}): ProgressLine {
	const counts = new Map<TaskStatus, number>();
	let finished = 0;
	const started = Date.now();
	const paint = (code: string, text: string) => (options.color ? `\u001B[${code}m${text}\u001B[0m` : text);
	const draw = () => {
		const seconds = Math.floor((Date.now() - started) / 1000);
		const parts = [
			`${finished}/${total} done`,
			`${counts.get('running') ?? 0} running`,
			paint('32', `✓ ${counts.get('succeeded') ?? 0}`),
			paint('31', `✗ ${(counts.get('failed') ?? 0) + (counts.get('timed_out') ?? 0)}`),
			`${(counts.get('cancelled') ?? 0) + (counts.get('refused') ?? 0)} cancelled/refused`,
			`${seconds}s`,
		];
		const line = `hermes-delegate: ${parts.join(' · ')}`.slice(0, Math.max(20, (stream.columns ?? 80) - 1));
		stream.write(`\r\u001B[2K${line}`);
	};

	const timer = setInterval(draw, 200);
	timer.unref();
	const bump = (status: TaskStatus, delta: number) => counts.set(status, (counts.get(status) ?? 0) + delta);
	const statusOf = new Map<string, TaskStatus>();
	const move = (id: string, status: TaskStatus) => {
		const previous = statusOf.get(id);
		if (previous) {
			bump(previous, -1);
		}

		statusOf.set(id, status);
		bump(status, 1);
	};

	return {
		onEvent(event) {
			if (event.type === 'task.started') {
				move(event.id, 'running');
			} else if (event.type === 'task.finished') {
				move(event.id, event.result.status);
				finished++;
			}
		},
		stop() {
			clearInterval(timer);
			stream.write('\r\u001B[2K');
		},
	};
}
