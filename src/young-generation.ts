// V8's young generation, sized on purpose (bench/RESULTS.md). V8 doubles the young generation whenever as
// many bytes have survived scavenges as it holds, up to 2 × 16 MiB on 64-bit, and shrinks it only
// when the process allocates under ~1 MB/s. A dashboard redraws at 12 frames a second, so it grows
// to the maximum within seconds and stays there: 32 MiB of resident memory, a quarter of the whole
// process under 32 trickling agents. Half of that holds a frame's garbage just as well, with a
// lower peak and CPU time within noise (bench/RESULTS.md, 2026-12-01, 6ec0c50).
//
// The size can only be capped on node's command line (`--max-semi-space-size`), which an npm bin
// cannot pass. What can change after start is the factor V8 grows by, read at each growth: it
// stays 2 until the young generation has reached the cap, then becomes 1.
import {PerformanceObserver} from 'node:perf_hooks';
import v8 from 'node:v8';

/** Both semi-spaces together: 2 × 8 MiB. Smaller ones promote more and grow the old generation instead (4 and 8 MiB measured). */
export const youngGenerationCap = 16 * 1024 * 1024;

function youngGenerationBytes(): number {
	return v8.getHeapSpaceStatistics().find(space => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Stops the young generation growing once it holds `cap` bytes. Checked after each garbage
 * collection until then; a growth is always a doubling, so the last one lands on a power of two.
 */
export function capYoungGeneration(cap = youngGenerationCap): void {
	const reached = (): boolean => {
		if (youngGenerationBytes() < cap) {
			return false;
		}

		v8.setFlagsFromString('--semi-space-growth-factor=1');
		return true;
	};

	if (reached()) {
		return;
	}

	const afterCollections = new PerformanceObserver(() => {
		if (reached()) {
			afterCollections.disconnect();
		}
	});
	afterCollections.observe({entryTypes: ['gc']});
}
