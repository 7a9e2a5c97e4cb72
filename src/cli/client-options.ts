import type { Command } from 'commander';
import { resolveClientSettings, type ClientSettings } from '../config/index.js';
import { parseHost, parsePort } from './address-options.js';

export interface ClientFlags {
  host?: string;
  port?: number;
  token?: string;
  config?: string;
  json?: boolean;
}

/** Adds the options every command that talks to a running server shares. */
export function withClientOptions(command: Command): Command {
  return command
    .option(
      '--host <host>',
      "server host, host:port or base URL (env HOST, else the config file's server.host; default 127.0.0.1)",
      parseHost,
    )
    .option('--port <port>', "server port (env PORT, else the config file's server.port; default 8000)", parsePort)
    .option('--token <token>', 'API key, JWT or access token (env AGENT_GATEWAY_TOKEN)')
    .option(
      '--config <file>',
      "the server's config file, read for its address and data dir (env AGENT_GATEWAY_CONFIG; default ./agent-gateway.yaml)",
    )
    .option('--json', 'print machine-readable JSON');
}

export function clientSettings(flags: ClientFlags): ClientSettings {
  return resolveClientSettings(flags);
}
