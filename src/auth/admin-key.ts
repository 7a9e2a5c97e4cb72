import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const ADMIN_KEY_FILE = 'admin-api-key';

/** The same minimum as configured API keys. */
const MIN_KEY_LENGTH = 8;

/**
 * With neither API keys nor a JWT secret configured the server would be open, so an admin API key is
 * generated once and kept (mode 0600) in the data dir. `created` tells the caller to show it, once.
 */
export function loadOrCreateAdminKey(dataDir: string): { key: string; path: string; created: boolean } {
  const path = join(dataDir, ADMIN_KEY_FILE);
  if (existsSync(path)) return { key: readKey(path), path, created: false };
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = `agk-${randomBytes(24).toString('hex')}`;
  try {
    writeFileSync(path, `${key}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process starting on the same data dir wrote it first: use its key.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { key: readKey(path), path, created: false };
    throw error;
  }
  return { key, path, created: true };
}

function readKey(path: string): string {
  const key = readFileSync(path, 'utf8').trim();
  if (key.length < MIN_KEY_LENGTH)
    throw new Error(
      `${path} holds no usable admin API key (at least ${MIN_KEY_LENGTH} characters); delete the file to generate a new one`,
    );
  return key;
}
