import { Command } from 'commander';
import type { SessionItem } from '../admin/index.js';
import { callApi } from './api-client.js';
import { clientSettings, withClientOptions, type ClientFlags } from './client-options.js';
import { printRows } from './output.js';

const SESSION_COLUMNS = ['session_id', 'agent_name', 'message_count', 'created_at', 'last_active'];

export function sessionsCommand(): Command {
  return withClientOptions(new Command('sessions'))
    .description('list sessions active within admin.session_window_minutes (admin API)')
    .action(async (flags: ClientFlags) => {
      const rows = await callApi<SessionItem[]>(clientSettings(flags), 'GET', '/api/v1/admin/sessions');
      printRows(rows, SESSION_COLUMNS, flags.json ?? false);
    });
}
