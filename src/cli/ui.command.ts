import { Command } from 'commander';
import { callApi } from './api-client.js';
import { clientSettings, withClientOptions, type ClientFlags } from './client-options.js';

interface LoginCode {
  code: string;
  login_url: string;
  expires_at: string;
}

export function uiCommand(): Command {
  return withClientOptions(new Command('ui'))
    .description('print a one-time link that signs this browser in to the dashboard at /ui (valid for 2 minutes)')
    .action(async (flags: ClientFlags) => {
      const login = await callApi<LoginCode>(clientSettings(flags), 'POST', '/api/v1/ui/login-codes');
      if (flags.json) console.log(JSON.stringify(login, null, 2));
      else
        console.log(
          `Open this link to sign in to the dashboard (once, until ${login.expires_at}):\n${login.login_url}`,
        );
    });
}
