import { Command } from 'commander';
import type { SystemStatus } from '../admin/index.js';
import { callApi } from './api-client.js';
import { clientSettings, withClientOptions, type ClientFlags } from './client-options.js';
import { printObject } from './output.js';

export function statusCommand(): Command {
  return withClientOptions(new Command('status'))
    .description("show the server's health: healthy, or degraded with reasons (admin API)")
    .action(async (flags: ClientFlags) => {
      const status = await callApi<SystemStatus>(clientSettings(flags), 'GET', '/api/v1/admin/status');
      printObject({ ...status }, flags.json ?? false);
    });
}
