// Text from configs and task files printed by commands other than the dashboard: route names,
// descriptions, models and goals carrying OSC 52 (clipboard), a title, mouse reporting, an 8-bit
// CSI. Text output is sanitised; JSON output keeps the data but escapes every control character.
import {describe, expect, it, onTestFinished} from 'vitest';
import {makeHome, runCli, tasksJson} from '../helpers/run-cli.js';

const clipboard = '\u001B]52;c;cHduZWQ=\u0007';
const title = '\u001B]0;PWNED\u001B\\';
const mouse = '\u001B[?1000h';
const csi8 = '\u009B2J';
const hostile = `${clipboard}${title}${mouse}${csi8}`;
/** Anything a terminal acts on: C0 except newline, DEL, C1. */
const control = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/;

function home(config?: string) {
	const created = makeHome(config);
	onTestFinished(() => created.remove());
	return created;
}

/**
 * Inside a double-quoted YAML string, every control character as an escape: a raw C1 character
 * (U+009B) would make Hermes's PyYAML, and so hermes-delegate, refuse the whole file.
 */
const yamlEscaped = (text: string) => JSON.stringify(text).slice(1, -1).replaceAll(/[\u007F-\u009F]/g, char => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

const hostileConfig = `delegation:
  backend: model_map
  backends:
    model_map:
      options:
        - name: fast
          description: "Quick ${yamlEscaped(hostile)} lookups"
          provider: openrouter
          model: "gemini${yamlEscaped(mouse)}-flash"
      default: fast
`;

describe('escape sequences outside the dashboard', () => {
	it('config --show prints descriptions and models sanitised', async () => {
		const run = await runCli(home(hostileConfig), ['config', '--show']);
		expect(run.exitCode).toBe(0);
		expect(run.stdout).toContain('Quick ');
		expect(run.stdout).toContain('lookups');
		expect(run.stdout).not.toMatch(control);
	});

	it('config --json keeps the text as data, every control character JSON-escaped', async () => {
		const run = await runCli(home(hostileConfig), ['config', '--json']);
		expect(run.exitCode).toBe(0);
		expect(run.stdout).not.toMatch(control);
		const parsed = JSON.parse(run.stdout) as {model_map: {options: Array<{description: string}>}};
		expect(parsed.model_map.options[0]?.description).toBe(`Quick ${hostile} lookups`);
		expect(run.stdout).toContain('\\u009b2J');
	});

	it('a config error quoting a hostile route name is sanitised', async () => {
		const config = hostileConfig.replace('default: fast', `default: "fa${yamlEscaped(hostile)}st"`);
		const run = await runCli(home(config), ['config', '--show']);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toContain('default');
		expect(run.stderr).not.toMatch(control);
	});

	it('--strict: a goal cut at 40 characters inside an OSC does not swallow the rest of the message', async () => {
		const goal = `${'x'.repeat(30)}\u001B]0;${'t'.repeat(20)}\u0007 and the rest of the goal`;
		const run = await runCli(home(), ['run', '--strict', tasksJson({goal, option: 'nonexistent'})]);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).not.toMatch(control);
		expect(run.stderr).toContain('nonexistent');
		expect(run.stderr).toContain('fix: ');
	});

	it('run prints results with the agent\'s escapes JSON-escaped, and warnings sanitised', async () => {
		const run = await runCli(home(), ['run', tasksJson({goal: `Say ${hostile}`, context: '[fake:duration=0.1] [fake:escapes]'})]);
		expect(run.exitCode).toBe(0);
		expect(run.stdout).not.toMatch(control);
		expect(run.stderr).not.toMatch(control);
		expect((JSON.parse(run.stdout) as {results: Array<{goal: string}>}).results[0]?.goal).toBe(`Say ${hostile}`);
	});
});
