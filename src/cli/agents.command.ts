import { Command } from 'commander';
import type { AgentDetail, AgentSummary } from '../admin/index.js';
import { callApi } from './api-client.js';
import { clientSettings, withClientOptions, type ClientFlags } from './client-options.js';
import { printObject, printRows } from './output.js';

const AGENT_COLUMNS = ['name', 'model', 'status', 'total_runs', 'registered_at'];

export function agentsCommand(): Command {
  const agents = new Command('agents').description('list and inspect agents (admin API)');

  withClientOptions(agents.command('list'))
    .description('list agents with their status and run count')
    .action(async (flags: ClientFlags) => {
      const rows = await callApi<AgentSummary[]>(clientSettings(flags), 'GET', '/api/v1/admin/agents');
      printRows(rows, AGENT_COLUMNS, flags.json ?? false);
    });

  withClientOptions(agents.command('show'))
    .description("show an agent's prompt, tools and settings")
    .argument('<name>')
    .action(async (name: string, flags: ClientFlags) => {
      const agent = await callApi<AgentDetail>(
        clientSettings(flags),
        'GET',
        `/api/v1/admin/agents/${encodeURIComponent(name)}`,
      );
      printObject({ ...agent }, flags.json ?? false);
    });

  return agents;
}
