import { APICallError } from '@ai-sdk/provider';
import { UpstreamError } from '../errors.js';
import { parseRetryAfterMs, type UpstreamFailure } from './retry-policy.js';

export interface FailureContext {
  /** `<type> provider "name" model "id"`: every message says which call failed. */
  label: string;
  /** Values that must never appear in a message (API keys). */
  secrets: string[];
  timedOut: boolean;
  timeoutMs: number;
  /** The caller's signal aborted (run cancelled, client gone). */
  aborted: boolean;
}

const MAX_DETAIL_LENGTH = 500;

function redact(text: string, secrets: string[]): string {
  let result = text;
  for (const secret of secrets) if (secret) result = result.split(secret).join('***');
  return result.length > MAX_DETAIL_LENGTH ? `${result.slice(0, MAX_DETAIL_LENGTH)}…` : result;
}

/** The innermost useful description: undici hides `ECONNREFUSED` or `other side closed` in the cause. */
function describeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    parts.push(
      typeof code === 'string' && !current.message.includes(code) ? `${current.message} (${code})` : current.message,
    );
    current = current.cause;
  }
  return parts.length > 0 ? parts.join(': ') : String(error);
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Turns anything a provider call threw into an UpstreamError; only llm/ does this. */
export function mapUpstreamError(error: unknown, context: FailureContext): UpstreamFailure {
  if (error instanceof UpstreamError) return { error };
  const fail = (
    detail: string,
    options: Omit<ConstructorParameters<typeof UpstreamError>[0], 'message'>,
  ): UpstreamFailure => ({
    error: new UpstreamError({
      ...options,
      message: `${context.label}: ${redact(detail, context.secrets)}`,
      cause: error,
    }),
  });
  if (context.timedOut)
    return fail(`no complete answer within ${context.timeoutMs} ms`, { retryable: false, timeout: true });
  if (context.aborted) return fail('call aborted by the caller', { retryable: false });
  // A 2xx APICallError is a response that broke while being read: a network failure when the SDK says retryable.
  if (APICallError.isInstance(error) && error.statusCode !== undefined && error.statusCode >= 300) {
    const status = error.statusCode;
    const retryAfterMs = parseRetryAfterMs(error.responseHeaders);
    const retryAfterSeconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
    const failure = fail(`upstream answered HTTP ${status}: ${error.message}`, {
      retryable: isRetryableStatus(status),
      upstreamStatus: status,
      retryAfterSeconds,
    });
    return { error: failure.error, retryAfterMs };
  }
  if (!(error instanceof Error)) {
    // An `error` chunk inside an otherwise successful stream, e.g. `data: {"error": {"message": …}}`.
    const message =
      typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : JSON.stringify(error);
    return fail(`upstream reported an error in its stream: ${message}`, { retryable: false });
  }
  const name = error.name;
  const network = APICallError.isInstance(error) ? error.isRetryable : !name.startsWith('AI_');
  if (!network) {
    return fail(`invalid response from upstream: ${describeCause(error)}`, { retryable: false });
  }
  return fail(`connection failed: ${describeCause(error)}`, { retryable: true });
}
