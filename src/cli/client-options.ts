import type { Command } from 'commander';
import { resolveClientSettings, type ClientSettings } from '../config/index.js';

export interface ClientFlags {
  host?: string;
  port?: string;
  token?: string;
  json?: boolean;
}

/** Adds the options every command that talks to a running server shares. */
export function withClientOptions(command: Command): Command {
  return command
    .option('--host <host>', 'server host or base URL', 'localhost')
    .option('--port <port>', 'server port', '8000')
    .option('--token <token>', 'API key, JWT or access token (env AGENT_GATEWAY_TOKEN)')
    .option('--json', 'print machine-readable JSON');
}

export function clientSettings(flags: ClientFlags): ClientSettings {
  return resolveClientSettings(flags);
}
