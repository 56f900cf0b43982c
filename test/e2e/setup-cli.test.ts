// `hermes-delegate setup hermes`: the MCP server registered in a Hermes home's config.yaml as a
// splice (comments and the rest of the file kept), the skill installed, idempotent.
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {parse} from 'yaml';
import {cliPath, makeHome, runCli, type TestHome} from '../helpers/run-cli.js';

const lived = `# my Hermes — do not lose this comment
model:
  default: anthropic/claude-opus-5   # the parent's model
mcp_servers:
  fs:   # files
    command: npx
    args: ["-y", "@modelcontextprotocol/server-filesystem", "/srv"]
delegation:
  backend: model_map
  backends:
    model_map:
      options:
        - name: fast
          description: Quick lookups.
          provider: openrouter
          model: google/gemini-3-flash-preview
`;

function home(config = lived): TestHome {
	const created = makeHome(config);
	onTestFinished(() => created.remove());
	return created;
}

function read(test: TestHome, file: string): string {
	return readFileSync(path.join(test.dir, file), 'utf8');
}

describe('setup hermes', () => {
	it('--dry-run shows the entry and the skill and changes nothing', async () => {
		const test = home();
		const dry = await runCli(test, ['setup', 'hermes', '--dry-run']);
		expect(dry.exitCode, dry.stderr).toBe(0);
		expect(dry.stdout).toContain('would add mcp_servers.delegate');
		expect(dry.stdout).toContain('+    timeout: 660');
		expect(dry.stdout).toContain('dry run: nothing was changed');
		expect(read(test, 'config.yaml')).toBe(lived);
		expect(existsSync(path.join(test.dir, 'skills'))).toBe(false);
	});

	it('run twice gives one entry; the comments and the other server stay; the skill is installed', async () => {
		const test = home();
		const first = await runCli(test, ['setup', 'hermes']);
		expect(first.exitCode, first.stderr).toBe(0);
		const once = read(test, 'config.yaml');
		expect(once).toContain('# my Hermes — do not lose this comment');
		expect(once).toContain('fs:   # files');
		const servers = (parse(once) as {mcp_servers: Record<string, any>}).mcp_servers;
		expect(Object.keys(servers)).toEqual(['fs', 'delegate']);
		expect(servers['delegate']).toEqual({command: cliPath, args: ['mcp'], env: {HERMES_HOME: test.dir}, timeout: 660});
		const skill = read(test, 'skills/delegation/hermes-delegate/SKILL.md');
		expect(skill).toMatch(/^---\nname: hermes-delegate\ndescription: /);
		for (const tool of ['routes', 'delegate', 'batch_wait', 'batch_status', 'task_output', 'cancel', 'batches']) expect(skill).toContain(`\`${tool}\``);

		const second = await runCli(test, ['setup', 'hermes']);
		expect(second.exitCode, second.stderr).toBe(0);
		expect(second.stdout).toContain('has mcp_servers.delegate already: left as it is');
		expect(second.stdout).toContain('is up to date');
		expect(read(test, 'config.yaml')).toBe(once);
	});

	it('--profile writes into that profile\'s config.yaml and skills; an unknown profile or agent is exit 2 and changes nothing', async () => {
		const test = home();
		test.write('profiles/coder/config.yaml', 'model:\n  default: qwen3-coder\n');
		const done = await runCli(test, ['setup', 'hermes', '--profile', 'coder']);
		expect(done.exitCode, done.stderr).toBe(0);
		expect((parse(read(test, 'profiles/coder/config.yaml')) as any).mcp_servers.delegate.env).toEqual({HERMES_HOME: test.dir});
		expect(existsSync(path.join(test.dir, 'profiles/coder/skills/delegation/hermes-delegate/SKILL.md'))).toBe(true);
		expect(read(test, 'config.yaml')).toBe(lived);

		const missing = await runCli(test, ['setup', 'hermes', '--profile', 'nobody']);
		expect(missing.exitCode).toBe(2);
		expect(missing.stderr).toContain('no Hermes profile "nobody"');
		const other = await runCli(test, ['setup', 'claude']);
		expect(other.exitCode).toBe(2);
		expect(other.stderr).toContain('`hermes-delegate setup hermes`');
	});
});
