// How long the runner host took to become ready, phase by phase, for host.log: the foreground
// (`run --detach`, the dashboard, the MCP server's `delegate`) waits for exactly this, so a slow
// start is worth one line where the operator can read it. Times are ms since this process began
// (performance.now() counts from the process's start, so the first phase is Node's own start plus
// loading the bundle). A host started ahead of its batch (client/launch.ts) waits for its spec:
// what the foreground waited for is what came after the spec.
export const specCame = 'spec came';

export class StartClock {
	private readonly marks: Array<[string, number]> = [];

	/** The phase that has just ended (or ended `at`, in performance.now()'s ms). */
	mark(phase: string, at = performance.now()): void {
		this.marks.push([phase, at]);
	}

	/** `ready 412 ms after its spec came (650 after the process began): node and modules 230 · spec came 8 · …`. */
	describe(): string {
		let previous = 0;
		const phases = this.marks.map(([phase, at]) => {
			const took = at - previous;
			previous = at;
			return `${phase} ${Math.round(took)}`;
		});
		const spec = this.marks.find(([phase]) => phase === specCame)?.[1];
		const sinceSpec = spec === undefined ? '' : `${Math.round(previous - spec)} ms after its spec came (`;
		return `ready ${sinceSpec}${Math.round(previous)} ms after the process began${sinceSpec ? ')' : ''}: ${phases.join(' · ')} (ms each)`;
	}
}
