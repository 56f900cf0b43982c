// Elapsed times as people read them, shared by the progress line and the dashboard.

/** "0s", "12s", "1m05s", "2h03m". */
export function formatElapsed(ms: number): string {
	const seconds = Math.max(0, Math.floor(ms / 1000));
	if (seconds < 60) {
		return `${seconds}s`;
	}

	const minutes = Math.floor(seconds / 60);
	if (minutes < 60) {
		return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
	}

	return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
