// A remote attempt's output on the runner host, read the way the Hermes that runs it writes it.
// The buffer must exist before the attempt starts (the dashboard shows it from then on), but in a
// mixed fleet which Hermes runs the task — stream-json or `-Q` text — is known only once a worker
// has claimed it. So the decoder is chosen then, before the first byte arrives: a JSON-looking
// answer from a worker without stream-json is shown as the text it is, not read as an event.
import {outputModeOf, type OutputMode} from '../core/hermes/flags.js';
import {withoutSessionLine} from '../core/hermes/output.js';
import {StreamJsonDecoder} from '../core/hermes/stream-json/decoder.js';
import {TaskOutput, type StdoutDecoder} from '../core/output/task-output.js';
import type {AttemptOutput} from '../core/run/executor.js';
import type {HermesCapabilities, TaskTelemetry} from '../core/types.js';

const chooseFor = new WeakMap<AttemptOutput, (mode: OutputMode) => void>();

/** A buffer read as the fleet's Hermes until readAs() names the Hermes that really runs the attempt. */
export function remoteOutput(settings: {capabilities: HermesCapabilities; tailLines?: number | undefined; display?: boolean | undefined}, onTelemetry: (telemetry: TaskTelemetry) => void): AttemptOutput {
	let mode = outputModeOf(settings.capabilities.flags);
	let inner: StreamJsonDecoder | undefined;
	const decoderFor = () => {
		inner = mode === 'stream-json' ? new StreamJsonDecoder({onTelemetry}) : undefined;
	};

	decoderFor();
	const decoder: StdoutDecoder = {
		push: chunk => inner ? inner.push(chunk) : chunk,
		end: () => inner?.end() ?? Buffer.alloc(0),
	};
	const output = new TaskOutput({maxLines: settings.tailLines, display: settings.display, decoder, stderrFilter: chunk => mode === 'text' ? chunk : withoutSessionLine(chunk)});
	const attemptOutput: AttemptOutput = {output, decoder: inner};
	chooseFor.set(attemptOutput, chosen => {
		if (chosen === mode) return;
		mode = chosen;
		decoderFor();
		attemptOutput.decoder = inner;
	});
	return attemptOutput;
}

/** The attempt runs on a worker whose Hermes has these flags: its output is read as that Hermes writes it. */
export function readAs(attemptOutput: AttemptOutput, flags: HermesCapabilities['flags']): void {
	chooseFor.get(attemptOutput)?.(outputModeOf(flags));
}
