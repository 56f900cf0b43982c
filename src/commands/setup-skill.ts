// The Hermes skill `setup hermes` installs beside the MCP entry: when to delegate through the
// tools and how to pick a route. Hermes reads skills from <home>/skills/<category>/<name>/SKILL.md
// (YAML front matter: name, description; NousResearch/hermes-agent hermes_constants.py and
// tools/skills_tool.py). Written in our own words; the tool names are the MCP server's interface.
export const skillCategory = 'delegation';
export const skillName = 'hermes-delegate';

export function skillText(server: string): string {
	return `---
name: ${skillName}
description: Split work into parallel subagent tasks, each on the model or profile that suits it, through the hermes-delegate MCP tools.
version: 1
metadata:
  hermes:
    tags: [delegation, subagents, routing]
---

# Delegating through hermes-delegate

The \`${server}\` MCP server runs subagent tasks in parallel, each as its own Hermes process on
a route the operator configured (a model, or a Hermes profile). The operator watches the same
batches in a terminal dashboard and may cancel or re-route them.

## When to use it
- The work splits into independent pieces that can run at the same time.
- The pieces differ in difficulty: cheap routes for lookups and summaries, strong ones for hard
  reasoning or code. Picking per task is the point.
- A piece is long-running and you want to keep working meanwhile.
Keep small, quick steps to yourself: each subagent starts a fresh process and knows nothing of
this conversation.

## How
1. Call \`routes\` to read the routes and what each is for. Re-read it when unsure: the operator
   edits the descriptions while you work.
2. Call \`delegate\` with \`tasks\`: each a self-contained \`goal\` (add \`context\` with the facts
   it needs), a short \`name\`, and the route field the tool's schema shows (\`option\` for model
   routes, \`profile\` for profile routes) chosen by the route descriptions. Leave the route out
   when none fits better than the default.
3. Keep the batch id. Call \`batch_wait\` (it returns after \`timeout_s\`; call again while it
   says \`timed_out\`) or poll \`batch_status\`. Read long output with \`task_output\`.
4. A task that runs away or is no longer needed: \`cancel\` it. After a restart, \`batches\`
   lists your batches again.

## Rules
- A refused task says why: fix what it names and delegate that task again.
- A tool error means nothing was started: read the fix it gives, then call again.
- Tell the user the \`hermes-delegate attach ID\` command the batch comes with, so they can watch.
`;
}
