import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { isoNow } from '../ids.js';

/** How long a code printed by `agent-gateway ui` stays valid. */
export const LOGIN_CODE_TTL_MS = 120_000;

export interface LoginCodeStore {
  /** A code that stands for `credential` once, until `ttlMs` has passed. */
  issue(credential: string): Promise<{ code: string; expiresAt: Date }>;
  /** The credential of a live code, which is spent (on every replica); undefined when unknown, spent or expired. */
  redeem(code: string): Promise<string | undefined>;
}

/**
 * One-time login codes in the database every replica shares, so a link printed by `agent-gateway ui` opens on
 * any of them. A row holds the code's SHA-256 and the credential sealed with AES-256-GCM under a key derived from
 * the code: the database alone gives neither the codes nor the credentials.
 */
export function createLoginCodeStore(
  db: Kysely<Database>,
  { ttlMs, now = Date.now }: { ttlMs: number; now?: () => number },
): LoginCodeStore {
  return {
    async issue(credential) {
      const code = randomBytes(24).toString('base64url');
      const expiresAt = new Date(now() + ttlMs);
      // Expired codes are swept when new ones are issued: the table stays as small as the codes in flight.
      await db
        .deleteFrom('ui_login_codes')
        .where('expires_at', '<=', isoNow(new Date(now())))
        .execute();
      await db
        .insertInto('ui_login_codes')
        .values({ code_hash: hashOf(code), sealed_credential: seal(code, credential), expires_at: isoNow(expiresAt) })
        .execute();
      return { code, expiresAt };
    },
    async redeem(code) {
      // One statement takes the row: two replicas redeeming the same code at once cannot both get it.
      const row = await db
        .deleteFrom('ui_login_codes')
        .where('code_hash', '=', hashOf(code))
        .returning(['sealed_credential', 'expires_at'])
        .executeTakeFirst();
      if (!row || row.expires_at <= isoNow(new Date(now()))) return undefined;
      return open(code, row.sealed_credential);
    },
  };
}

function hashOf(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

function keyOf(code: string): Buffer {
  return createHash('sha256').update(`agent-gateway login code key\0${code}`).digest();
}

function seal(code: string, credential: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(code), iv);
  const sealed = Buffer.concat([cipher.update(credential, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

function open(code: string, sealed: string): string | undefined {
  const bytes = Buffer.from(sealed, 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(code), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
