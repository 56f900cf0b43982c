// The CLI's own definitions as data, for the reference pages in docs/commands/ (scripts/docs.mjs
// writes them; test/scripts/docs.test.ts fails when one is stale). Each command's help is
// rendered by commander exactly as `COMMAND --help` prints it, at a fixed width and without
// colour, so a page cannot say anything the CLI does not.
import type {Command} from 'commander';

export type CommandReference = {
	/** The words after `hermes-delegate`: [] for the program, ['config', 'show'] for a subcommand. */
	path: string[];
	summary: string;
	/** What `--help` prints, the text added after it included. */
	help: string;
	/** Visible subcommands, by name. */
	commands: string[];
};

/** Wide enough for a page, narrow enough to read in a code block on GitHub. */
export const referenceWidth = 100;

/** Every visible command, the program first, then depth first in the order `--help` lists them. */
export function commandReference(program: Command): CommandReference[] {
	const pages: CommandReference[] = [];
	const visit = (command: Command, path: string[]) => {
		const visible = command.createHelp().visibleCommands(command).filter(child => child.name() !== 'help');
		pages.push({path, summary: command.summary() || command.description(), help: helpOf(command), commands: visible.map(child => child.name())});
		for (const child of visible) visit(child, [...path, child.name()]);
	};

	visit(program, []);
	return pages;
}

function helpOf(command: Command): string {
	const saved = command.configureOutput();
	let text = '';
	command.configureOutput({...saved, writeOut: chunk => {
		text += chunk;
	}, getOutHelpWidth: () => referenceWidth, getOutHasColors: () => false});
	try {
		command.outputHelp();
	} finally {
		command.configureOutput(saved);
	}

	return text;
}
