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
    .description('show a run with its steps and their prompt logs (--json for the raw record)')
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
      console.log(`\n${formatPromptLogs(steps)}`);
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

type PromptMessage = { role?: string; content?: unknown; tool_calls?: { name?: string; arguments?: string }[] };

/**
 * Each step's prompt log as a person reads it: a model call's messages (only those its previous model call did
 * not already show), its answer or tool calls and finish reason; a tool call's arguments and result.
 */
export function formatPromptLogs(steps: RunDetail['step_details']): string {
  const lines: string[] = [];
  let shown = 0;
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  for (const step of steps) {
    const log = step.prompt_log;
    lines.push(`step ${step.step_index} (${step.kind}${step.name ? ` ${step.name}` : ''}): prompt log`);
    const messages = Array.isArray(log.messages) ? (log.messages as PromptMessage[]) : undefined;
    if (messages) {
      if (shown > 0 && shown <= messages.length) lines.push(`  … ${shown} earlier messages`);
      for (const message of messages.slice(shown <= messages.length ? shown : 0)) {
        const calls = (message.tool_calls ?? []).map((call) => `${call.name}(${call.arguments ?? ''})`).join(', ');
        lines.push(`  ${message.role}: ${text(message.content ?? '')}${calls ? ` [calls ${calls}]` : ''}`);
      }
      shown = messages.length;
    }
    for (const [key, value] of Object.entries(log)) {
      if (key === 'messages' || value === null || value === undefined || value === '') continue;
      if (Array.isArray(value) && value.length === 0) continue;
      lines.push(`  ${key}: ${text(value)}`);
    }
  }
  return lines.join('\n');
}
