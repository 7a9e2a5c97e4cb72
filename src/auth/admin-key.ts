import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const ADMIN_KEY_FILE = 'admin-api-key';

/**
 * With neither API keys nor a JWT secret configured the server would be open, so an admin API key is
 * generated once and kept (mode 0600) in the data dir. `created` tells the caller to show it, once.
 */
export function loadOrCreateAdminKey(dataDir: string): { key: string; path: string; created: boolean } {
  const path = join(dataDir, ADMIN_KEY_FILE);
  if (existsSync(path)) return { key: readFileSync(path, 'utf8').trim(), path, created: false };
  mkdirSync(dataDir, { recursive: true });
  const key = `agk-${randomBytes(24).toString('hex')}`;
  writeFileSync(path, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return { key, path, created: true };
}
