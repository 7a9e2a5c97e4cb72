import { Command } from 'commander';
import type { DeliveryView, TriggerView } from '../gateway/triggers/index.js';
import { callApi } from './api-client.js';
import { clientSettings, withClientOptions, type ClientFlags } from './client-options.js';
import { printObject, printRows } from './output.js';
import { parsePositiveInt } from './tokens.command.js';

const TRIGGER_COLUMNS = [
  'kind',
  'name',
  'source',
  'state',
  'pending',
  'running',
  'done',
  'dead',
  'oldest_pending_s',
  'received',
  'runs_started',
  'last_event_at',
  'last_error',
];
const DELIVERY_COLUMNS = ['id', 'kind', 'trigger', 'event', 'status', 'attempts', 'received_at', 'last_error'];

interface DeliveriesFlags extends ClientFlags {
  status?: string;
  kind?: string;
  trigger?: string;
  limit?: number;
}

export function triggersCommand(): Command {
  const triggers = new Command('triggers').description(
    'webhooks, pollers and listeners: their state, their inbox and its dead letters',
  );

  withClientOptions(triggers.command('list', { isDefault: true }))
    .description(
      'list every webhook, poller and listener with its state and inbox: pending, running, done, dead, oldest pending age (the default)',
    )
    .action(async (flags: ClientFlags) => {
      const rows = await callApi<TriggerView[]>(clientSettings(flags), 'GET', '/api/v1/admin/triggers');
      // The table flattens the counts and the inbox; --json keeps the API's shape.
      const flat = flags.json
        ? rows
        : rows.map(({ counts, inbox, ...row }) => ({
            ...row,
            ...counts,
            ...inbox,
            oldest_pending_s: inbox.oldest_pending_age_seconds,
          }));
      printRows(flat as unknown as Record<string, unknown>[], TRIGGER_COLUMNS, flags.json ?? false);
    });

  withClientOptions(triggers.command('deliveries'))
    .description('list stored webhook deliveries and trigger events, newest first')
    .option('--status <status>', 'only those in this state (pending, running, done, dead, ignored)')
    .option('--kind <kind>', 'only webhook, poller or listener ones')
    .option('--trigger <name>', 'only those of this webhook, poller or listener')
    .option('--limit <n>', 'at most this many (default 50, at most 500)', parsePositiveInt)
    .action(async (flags: DeliveriesFlags) => {
      const query = new URLSearchParams();
      if (flags.status) query.set('status', flags.status);
      if (flags.kind) query.set('kind', flags.kind);
      if (flags.trigger) query.set('trigger', flags.trigger);
      if (flags.limit !== undefined) query.set('limit', String(flags.limit));
      const suffix = query.size > 0 ? `?${query.toString()}` : '';
      const rows = await callApi<DeliveryView[]>(
        clientSettings(flags),
        'GET',
        `/api/v1/admin/triggers/deliveries${suffix}`,
      );
      printRows(rows as unknown as Record<string, unknown>[], DELIVERY_COLUMNS, flags.json ?? false);
    });

  withClientOptions(triggers.command('replay').alias('retry'))
    .description('replay a dead letter: queue a dead delivery or trigger event again with fresh attempts')
    .argument('<id>', 'a del_… or evt_… id from `triggers deliveries --status dead`')
    .action(async (id: string, flags: ClientFlags) => {
      const delivery = await callApi<DeliveryView>(
        clientSettings(flags),
        'POST',
        `/api/v1/admin/triggers/deliveries/${encodeURIComponent(id)}/replay`,
      );
      printObject({ ...delivery }, flags.json ?? false);
    });

  return triggers;
}
