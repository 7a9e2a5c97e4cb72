import { randomBytes } from 'node:crypto';

export interface LoginCodes {
  /** A code that stands for `credential` once, until `ttlMs` has passed. */
  issue(credential: string): { code: string; expiresAt: Date };
  /** The credential of a live code, which is spent; undefined when it is unknown, spent or expired. */
  redeem(code: string): string | undefined;
}

/**
 * One-time login codes, held in this process: the code printed by `agent-gateway ui` must be opened on
 * the replica that issued it (behind a load balancer, use the sign-in form instead).
 */
export function createLoginCodes({ ttlMs, now = Date.now }: { ttlMs: number; now?: () => number }): LoginCodes {
  const codes = new Map<string, { credential: string; expiresAt: number }>();
  const sweep = () => {
    for (const [code, entry] of codes) if (entry.expiresAt <= now()) codes.delete(code);
  };
  return {
    issue(credential) {
      sweep();
      const code = randomBytes(24).toString('base64url');
      const expiresAt = now() + ttlMs;
      codes.set(code, { credential, expiresAt });
      return { code, expiresAt: new Date(expiresAt) };
    },
    redeem(code) {
      const entry = codes.get(code);
      codes.delete(code);
      return entry && entry.expiresAt > now() ? entry.credential : undefined;
    },
  };
}
