import { APICallError } from '@ai-sdk/provider';
import { UpstreamError } from '../errors.js';
import { parseRetryAfterMs, type FailureReason, type UpstreamFailure } from './retry-policy.js';

export interface FailureContext {
  /** `<type> provider "name" model "id"`: every message says which call failed. */
  label: string;
  /** Values that must never appear in a message (API keys). */
  secrets: string[];
  /** Host names the provider is reached at (its base_url's): logged, never in a message a caller reads. */
  hosts?: string[];
  timedOut: boolean;
  timeoutMs: number;
  /** The caller's signal aborted (run cancelled, client gone). */
  aborted: boolean;
  /** Set when the upstream went silent for longer than the provider's stall_timeout_ms. */
  stalledMs?: number;
  /** Set when the whole call (every target) ran out of its group's timeout_ms. */
  budgetMs?: number;
}

const MAX_DETAIL_LENGTH = 500;

function redact(text: string, secrets: string[]): string {
  let result = text;
  for (const secret of secrets) if (secret) result = result.split(secret).join('***');
  return result.length > MAX_DETAIL_LENGTH ? `${result.slice(0, MAX_DETAIL_LENGTH)}…` : result;
}

/** URLs, IPv4 and IPv6 addresses (with a port): where an upstream is, or what it reached behind it. */
const ADDRESSES = [
  /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>,;)]+/gi,
  /\[[0-9a-f:.]*:[0-9a-f:.]*\](?::\d+)?/gi,
  /(?<![\w:.])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?:\.\d{1,3}){0,3}(?::\d+)?(?![\w:])/gi,
  /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g,
];

/** The message a caller reads: no address of the provider's network (issue #41); the logs keep the detail. */
function withoutAddresses(text: string, hosts: string[]): string {
  let result = text;
  for (const host of hosts) if (host) result = result.split(host).join('<upstream>');
  for (const pattern of ADDRESSES) result = result.replace(pattern, '<address>');
  return result;
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

// OpenAI's codes, and the wording of servers that send none (vLLM, llama.cpp, Anthropic, Azure).
const CONTEXT_LENGTH = /context_length_exceeded|context length|context window|maximum context|prompt is too long/i;
const CONTENT_POLICY = /content_policy_violation|content_filter|content management policy|content policy/i;

/** A request refused for what it says: it would be refused anywhere, except by a model made for it. */
function refusalReason(text: string): FailureReason | undefined {
  if (CONTEXT_LENGTH.test(text)) return 'context_length';
  if (CONTENT_POLICY.test(text)) return 'content_policy';
  return undefined;
}

function reasonOfStatus(status: number, body: string): FailureReason {
  if (status === 429) return 'rate_limited';
  if (isRetryableStatus(status)) return 'server_error';
  return refusalReason(body) ?? 'client_error';
}

/** Turns anything a provider call threw into an UpstreamError; only llm/ does this. */
export function mapUpstreamError(error: unknown, context: FailureContext): UpstreamFailure {
  if (error instanceof UpstreamError) return { error, reason: error.retryable ? 'server_error' : 'client_error' };
  const fail = (
    reason: FailureReason,
    detail: string,
    options: Omit<ConstructorParameters<typeof UpstreamError>[0], 'message'>,
  ): UpstreamFailure => ({
    reason,
    error: new UpstreamError({
      ...options,
      message: `${context.label}: ${redact(withoutAddresses(detail, context.hosts ?? []), context.secrets)}`,
      cause: error,
    }),
    detail: redact(detail, context.secrets),
  });
  if (context.stalledMs !== undefined)
    return fail('stalled', `no data for ${context.stalledMs} ms`, { retryable: false, timeout: true });
  if (context.timedOut)
    return fail('timeout', `no complete answer within ${context.timeoutMs} ms`, { retryable: false, timeout: true });
  if (context.budgetMs !== undefined)
    return fail('budget_exhausted', `no answer within the call's budget of ${context.budgetMs} ms`, {
      retryable: false,
      timeout: true,
    });
  if (context.aborted) return fail('aborted', 'call aborted by the caller', { retryable: false });
  // A 2xx APICallError is a response that broke while being read: a network failure when the SDK says retryable.
  if (APICallError.isInstance(error) && error.statusCode !== undefined && error.statusCode >= 300) {
    const status = error.statusCode;
    const retryAfterMs = parseRetryAfterMs(error.responseHeaders);
    const retryAfterSeconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
    const reason = reasonOfStatus(status, `${error.responseBody ?? ''} ${error.message}`);
    const failure = fail(reason, `upstream answered HTTP ${status}: ${error.message}`, {
      retryable: isRetryableStatus(status),
      upstreamStatus: status,
      retryAfterSeconds,
    });
    return { ...failure, retryAfterMs };
  }
  if (!(error instanceof Error)) {
    // An `error` chunk inside an otherwise successful stream, e.g. `data: {"error": {"message": …}}`.
    const message =
      typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : JSON.stringify(error);
    const reason = refusalReason(JSON.stringify(error)) ?? 'stream_error';
    return fail(reason, `upstream reported an error in its stream: ${message}`, { retryable: false });
  }
  const name = error.name;
  const network = APICallError.isInstance(error) ? error.isRetryable : !name.startsWith('AI_');
  if (!network) {
    return fail('invalid_response', `invalid response from upstream: ${describeCause(error)}`, { retryable: false });
  }
  return fail('connection', `connection failed: ${describeCause(error)}`, { retryable: true });
}
