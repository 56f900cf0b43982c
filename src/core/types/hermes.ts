// What the installed hermes binary can do, as its probe found.
/** What the installed `hermes` can do, read from `hermes --version` and `hermes chat --help`. */
export type HermesCapabilities = {
	/** The path probed. */
	bin: string;
	/** e.g. "0.19.0"; null when `--version` named no release (`vgit.<sha>`, `vunknown`) or nothing we understand. */
	version: string | null;
	/** What `--version` printed in place of the release where that is more (`0.21.5+3160.g42d70d2.dirty`, `git.42d70d2`). */
	versionLabel?: string | undefined;
	/** false: not probed (no binary, e.g. `--dry-run` without Hermes): the oldest supported Hermes is assumed. */
	probed: boolean;
	/** Why probing failed, when it did. */
	problem?: string | undefined;
	/** The `hermes chat` flags found in its --help. */
	flags: {
		quiet: boolean;
		reasoning: boolean;
		/** `--format stream-json` (Hermes 0.20.6+). */
		streamJson: boolean;
		queryFile: boolean;
		runBudget: boolean;
		maxTurns: boolean;
		toolsets: boolean;
		skills: boolean;
		worktree: boolean;
		source: boolean;
		provider: boolean;
		/**
		 * `chat --cli`: the classic prompt even where `display.interface: tui` or HERMES_TUI=1 asks for
		 * Hermes's TUI (which, without a terminal, exits 0 having done nothing). Optional: absent
		 * (capabilities written before it was probed) means not passed.
		 */
		cli?: boolean;
	};
};
