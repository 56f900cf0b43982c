// The fake's session rows as the recorder read Hermes's (recorded/tools/record.py): for each
// session id printed, its row in the state.db of the root home or of a profile's home, with the
// columns the recordings keep, the home and the ports in placeholders.
import {existsSync, readdirSync} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

const recordedColumns = ['source', 'model', 'end_reason', 'message_count', 'tool_call_count', 'input_tokens', 'output_tokens', 'billing_provider', 'billing_base_url', 'billing_mode'] as const;
const sessionIdPattern = /\b\d{8}_\d{6}_[0-9a-f]{6}\b/g;

function homes(values: Record<string, string>): Array<{storedIn: string; db: string}> {
	const root = values['HOME']!;
	const profiles = path.join(root, 'profiles');
	const named = existsSync(profiles) ? readdirSync(profiles).map(name => ({storedIn: `{HOME}/profiles/${name}`, db: path.join(profiles, name, 'state.db')})) : [];
	return [{storedIn: '{HOME}', db: path.join(root, 'state.db')}, ...named].filter(home => existsSync(home.db));
}

/** printed: stderr then stdout, so the ids are numbered as placeholders.json numbers them. */
export function sessionRows(printed: string, values: Record<string, string>): Record<string, Record<string, unknown>> {
	const ids = [...new Set(printed.match(sessionIdPattern) ?? [])];
	const rows: Record<string, Record<string, unknown>> = {};
	for (const home of homes(values)) {
		const db = new Database(home.db, {readonly: true, fileMustExist: true});
		try {
			for (const [index, id] of ids.entries()) {
				const row = db.prepare(`SELECT ${recordedColumns.join(', ')} FROM sessions WHERE id = ?`).get(id) as Record<string, unknown> | undefined;
				if (!row) continue;
				const url = typeof row['billing_base_url'] === 'string' ? row['billing_base_url'] : null;
				const port = url && Object.entries(values).find(([name, value]) => name.startsWith('PORT_') && url.includes(`:${value}`));
				rows[index === 0 ? '{SESSION_ID}' : `{SESSION_ID_${index + 1}}`] = {stored_in: home.storedIn, ...row, billing_base_url: port ? url.replace(`:${port[1]}`, `:{${port[0]}}`) : url};
			}
		} finally {
			db.close();
		}
	}

	return rows;
}

export type StoredMessage = {role: string; finish_reason: string | null; tool_call_ids: string[]; tool_call_id: string | null; tool_name: string | null};

/** The messages rows of each session printed, oldest first, keyed as sessionRows keys them. */
export function sessionMessages(printed: string, values: Record<string, string>): Record<string, StoredMessage[]> {
	const ids = [...new Set(printed.match(sessionIdPattern) ?? [])];
	const messages: Record<string, StoredMessage[]> = {};
	for (const home of homes(values)) {
		const db = new Database(home.db, {readonly: true, fileMustExist: true});
		try {
			for (const [index, id] of ids.entries()) {
				const rows = db.prepare('SELECT role, finish_reason, tool_calls, tool_call_id, tool_name FROM messages WHERE session_id = ? ORDER BY id').all(id) as Array<{role: string; finish_reason: string | null; tool_calls: string | null; tool_call_id: string | null; tool_name: string | null}>;
				if (rows.length === 0) continue;
				messages[index === 0 ? '{SESSION_ID}' : `{SESSION_ID_${index + 1}}`] = rows.map(row => ({
					role: row.role,
					finish_reason: row.finish_reason,
					tool_call_ids: row.tool_calls === null ? [] : (JSON.parse(row.tool_calls) as Array<{id: string}>).map(call => call.id),
					tool_call_id: row.tool_call_id,
					tool_name: row.tool_name,
				}));
			}
		} finally {
			db.close();
		}
	}

	return messages;
}
