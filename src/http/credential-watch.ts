import type { Principal } from '../auth/index.js';
import { AuthenticationError } from '../errors.js';

/**
 * Watches the credential a request presented while a stream it opened lasts: calls `onLapse` once, with the
 * 401 a new request would get, when the credential stops being good. Returns the function that stops watching.
 */
export type CredentialWatch = (onLapse: (error: AuthenticationError) => void) => () => void;

export interface CredentialWatchOptions {
  /** How often an access token is read again from the store (revoked or deleted meanwhile, on any replica). */
  recheckMs: number;
  /** The time expiry is measured against, in ms since the epoch (the authenticator's clock). */
  now: () => number;
  /** Throws a 401 when the access token was revoked, deleted or expired since it was presented. */
  recheckToken: (tokenId: string) => Promise<void>;
}

/** setTimeout's longest delay: an expiry further away is reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A JWT lapses at its `exp`, an access token at its `expires_at` (one timer each, no polling) or when a
 * re-read every `recheckMs` finds it revoked or deleted. An API key never lapses. A dashboard cookie holds one
 * of these credentials, so it lapses as the credential in it does. A re-read that fails for another reason (the
 * database out of reach) leaves the stream open and is tried again next period.
 */
export function watchCredential(
  principal: Principal,
  onLapse: (error: AuthenticationError) => void,
  options: CredentialWatchOptions,
): () => void {
  let stopped = false;
  let expiry: NodeJS.Timeout | undefined;
  let recheck: NodeJS.Timeout | undefined;
  const stop = () => {
    stopped = true;
    clearTimeout(expiry);
    clearTimeout(recheck);
  };
  const lapse = (error: AuthenticationError) => {
    if (stopped) return;
    stop();
    onLapse(error);
  };

  const expiresAtMs = principal.expiresAtMs;
  if (expiresAtMs !== undefined) {
    const expired =
      principal.kind === 'operator'
        ? () => new AuthenticationError('JWT has expired', 'jwt_expired')
        : () => new AuthenticationError('Access token has expired', 'token_expired');
    const arm = () => {
      const left = expiresAtMs - options.now();
      expiry = setTimeout(() => (left > MAX_TIMER_MS ? arm() : lapse(expired())), clampDelay(left));
      expiry.unref();
    };
    arm();
  }

  if (principal.kind === 'access_token') {
    const tokenId = principal.tokenId;
    // One re-read at a time: the next is timed from the end of the last (a slow store never piles them up).
    const next = () => {
      recheck = setTimeout(() => {
        options.recheckToken(tokenId).then(
          () => !stopped && next(),
          (error: unknown) => (error instanceof AuthenticationError ? lapse(error) : !stopped && next()),
        );
      }, options.recheckMs);
      recheck.unref();
    };
    next();
  }
  return stop;
}

function clampDelay(ms: number): number {
  return Math.min(Math.max(ms, 0), MAX_TIMER_MS);
}
