import { Command } from 'commander';
import type { RunDetail, RunItem } from '../admin/index.js';
import { callApi } from './api-client.js';
import { clientSettings, withClientOptions, type ClientFlags } from './client-options.js';
import { printObject, printRows } from './output.js';
import { parsePositiveInt } from './tokens.command.js';

const RUN_COLUMNS = [
  'run_id',
  'agent_name',
  'status',
  'started_at',
  'finished_at',
  'total_tokens',
  'cost_usd',
  'steps',
];
const STEP_COLUMNS = [
  'step_index',
  'kind',
  'name',
  'status',
  'latency_ms',
  'input_tokens',
  'output_tokens',
  'cost_usd',
];

interface ListFlags extends ClientFlags {
  agent?: string;
  status?: string;
  limit?: number;
  offset?: number;
}

export function runsCommand(): Command {
  const runs = new Command('runs').description('list, inspect and steer agent runs (admin API)');

  withClientOptions(runs.command('list'))
    .description('list runs, newest first')
    .option('--agent <name>', 'only runs of this agent')
    .option('--status <status>', 'only runs in this state (running, paused, completed, failed, cancelled, interrupted)')
    .option('--limit <n>', 'at most this many runs (default 50, at most 500)', parsePositiveInt)
    .option('--offset <n>', 'skip this many runs', parseCount)
    .action(async (flags: ListFlags) => {
      const query = new URLSearchParams();
      if (flags.agent) query.set('agent_name', flags.agent);
      if (flags.status) query.set('status', flags.status);
      if (flags.limit !== undefined) query.set('limit', String(flags.limit));
      if (flags.offset !== undefined) query.set('offset', String(flags.offset));
      const suffix = query.size > 0 ? `?${query.toString()}` : '';
      const rows = await callApi<RunItem[]>(clientSettings(flags), 'GET', `/api/v1/admin/runs${suffix}`);
      printRows(rows, RUN_COLUMNS, flags.json ?? false);
    });

  withClientOptions(runs.command('show'))
    .description('show a run with its steps (--json for the prompt logs)')
    .argument('<run_id>')
    .action(async (runId: string, flags: ClientFlags) => {
      const run = await callApi<RunDetail>(
        clientSettings(flags),
        'GET',
        `/api/v1/admin/runs/${encodeURIComponent(runId)}`,
      );
      if (flags.json) return printObject({ ...run }, true);
      const { step_details: steps, triggered_by: trigger, ...fields } = run;
      printObject(
        { ...fields, triggered_by: trigger && `${trigger.source} ${trigger.event} (item ${trigger.item_id})` },
        false,
      );
      console.log('');
      printRows(steps, STEP_COLUMNS, false);
    });

  for (const [command, description] of [
    ['pause', 'pause a running run at its next checkpoint'],
    ['resume', 'resume a paused run'],
    ['cancel', 'cancel a running or paused run'],
  ] as const) {
    withClientOptions(runs.command(command))
      .description(description)
      .argument('<run_id>')
      .action(async (runId: string, flags: ClientFlags) => {
        const result = await callApi<Record<string, unknown>>(
          clientSettings(flags),
          'POST',
          `/api/v1/admin/runs/${encodeURIComponent(runId)}/${command}`,
        );
        printObject(result, flags.json ?? false);
      });
  }

  return runs;
}

function parseCount(value: string): number {
  return value === '0' ? 0 : parsePositiveInt(value);
}
