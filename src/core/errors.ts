// Errors that stop a batch before anything starts. Each names where the problem is
// (file, path inside it) and what to do about it, so the message alone is enough to fix it.

export const exitCodes = {
	ok: 0,
	taskFailed: 1,
	/** A bug of hermes-delegate itself (EX_SOFTWARE), so scripts can tell it from a failed task. */
	internalError: 70,
	usage: 2,
	interrupted: 130,
} as const;

export type ProblemLocation = {
	file?: string | undefined;
	/** A path inside the file, e.g. `[2].goal` or `delegation.backends.model_map.options[0].model`. */
	path?: string | undefined;
	line?: number | undefined;
};

/**
 * Bad input or a batch-level refusal: exit code 2 and nothing started.
 * `fix` is what the operator should do, not a restatement of the problem.
 */
export class InputError extends Error {
	readonly location: ProblemLocation;
	readonly fix: string | undefined;

	constructor(message: string, location: ProblemLocation = {}, fix?: string) {
		super(message);
		this.name = 'InputError';
		this.location = location;
		this.fix = fix;
	}

	/** One readable block: `file:line: path: message` then the fix. */
	describe(): string {
		const where = [
			this.location.file
				? this.location.line
					? `${this.location.file}:${this.location.line}`
					: this.location.file
				: undefined,
			this.location.path,
		]
			.filter(Boolean)
			.join(': ');
		const head = where ? `${where}: ${this.message}` : this.message;
		return this.fix ? `${head}\n  fix: ${this.fix}` : head;
	}
}

/** Several input problems reported together, so the operator fixes them in one pass. */
export class InputErrors extends InputError {
	readonly problems: InputError[];

	constructor(problems: InputError[]) {
		super(problems.map(problem => problem.message).join('; '), problems[0]?.location ?? {});
		this.name = 'InputErrors';
		this.problems = problems;
	}

	override describe(): string {
		return this.problems.map(problem => problem.describe()).join('\n');
	}
}

/** What was thrown, as text: catch blocks get `unknown`, and a throw need not be an Error. */
export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** The errno code (ENOENT, EPERM, …) of a failed system call, or undefined when it has none. */
export function errnoCode(error: unknown): string | undefined {
	return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
