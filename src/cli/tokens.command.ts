import { Command, InvalidArgumentError } from 'commander';
import type { CreatedToken, TokenView } from '../auth/index.js';
import { callApi } from './api-client.js';
import { clientSettings, withClientOptions, type ClientFlags } from './client-options.js';
import { printObject, printRows } from './output.js';

const TOKEN_COLUMNS = [
  'token_id',
  'agent_name',
  'scopes',
  'status',
  'single_use',
  'expires_at',
  'last_used_at',
  'token_suffix',
];

export function tokensCommand(): Command {
  const tokens = new Command('tokens').description('issue and manage access tokens for external agents');

  withClientOptions(tokens.command('create'))
    .description('issue a token; the plaintext is printed once')
    .requiredOption('--agent <name>', 'the agent the token may reach')
    .option('--scopes <list>', 'comma-separated scopes (chat, a2a, tools)', 'chat')
    .option('--expires-in <seconds>', 'lifetime in seconds', parsePositiveInt)
    .option('--single-use', 'accept the token exactly once')
    .action(async (flags: ClientFlags & { agent: string; scopes: string; expiresIn?: number; singleUse?: boolean }) => {
      const created = await callApi<CreatedToken>(clientSettings(flags), 'POST', '/gateway/tokens', {
        agent_name: flags.agent,
        scopes: flags.scopes
          .split(',')
          .map((scope) => scope.trim())
          .filter(Boolean),
        expires_in_seconds: flags.expiresIn,
        single_use: flags.singleUse ?? false,
      });
      printObject({ ...created }, flags.json ?? false);
      if (!flags.json) console.error('Store the token now: it is not shown again.');
    });

  withClientOptions(tokens.command('list'))
    .description('list tokens (never their secrets)')
    .option('--agent <name>', 'only tokens for this agent')
    .action(async (flags: ClientFlags & { agent?: string }) => {
      const query = flags.agent ? `?agent_name=${encodeURIComponent(flags.agent)}` : '';
      const rows = await callApi<TokenView[]>(clientSettings(flags), 'GET', `/gateway/tokens${query}`);
      printRows(rows as unknown as Record<string, unknown>[], TOKEN_COLUMNS, flags.json ?? false);
    });

  withClientOptions(tokens.command('revoke'))
    .description('disable a token, keeping its record')
    .argument('<token_id>')
    .action(async (tokenId: string, flags: ClientFlags) => {
      const token = await callApi<TokenView>(
        clientSettings(flags),
        'POST',
        `/gateway/tokens/${encodeURIComponent(tokenId)}/revoke`,
      );
      printObject({ ...token }, flags.json ?? false);
    });

  withClientOptions(tokens.command('delete'))
    .description('delete a token permanently')
    .argument('<token_id>')
    .action(async (tokenId: string, flags: ClientFlags) => {
      const result = await callApi<Record<string, unknown>>(
        clientSettings(flags),
        'DELETE',
        `/gateway/tokens/${encodeURIComponent(tokenId)}`,
      );
      printObject(result, flags.json ?? false);
    });

  return tokens;
}

export function parsePositiveInt(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError('must be a positive integer');
  return parsed;
}
