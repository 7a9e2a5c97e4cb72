import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ClientSettings {
  baseUrl: string;
  token?: string;
}

/**
 * Where CLI client commands send requests and with which credential: flags, then AGENT_GATEWAY_TOKEN,
 * then the admin key a local server generated in ./data (so a first `npm start` works without setup).
 */
export function resolveClientSettings(
  flags: { host?: string; port?: string | number; token?: string },
  env: NodeJS.ProcessEnv = process.env,
): ClientSettings {
  const host = flags.host ?? 'localhost';
  const port = flags.port ?? 8000;
  const dataDir = env.DATA_DIR || './data';
  const generatedKeyFile = join(dataDir, 'admin-api-key');
  const token =
    flags.token ??
    (env.AGENT_GATEWAY_TOKEN || undefined) ??
    (existsSync(generatedKeyFile) ? readFileSync(generatedKeyFile, 'utf8').trim() : undefined);
  const base = /^https?:\/\//.test(host) ? host : `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return { baseUrl: base.replace(/\/$/, ''), token };
}
