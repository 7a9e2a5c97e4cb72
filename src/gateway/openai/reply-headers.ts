import type { FastifyReply } from 'fastify';
import type { AppError } from '../../errors.js';
import { GATEWAY_OVERHEAD_HEADER } from '../../http/index.js';
import { isRetryable } from './openai-errors.js';

/**
 * `x-gateway-overhead-ms`: the request's time so far minus what its run waited on model and tool calls.
 * Set when the answer starts: for a plain answer the whole request, for a stream its first byte (with the
 * upstream time until the first text). Clamped at 0: the two clocks start a hair apart.
 */
export function setOverheadHeader(reply: FastifyReply, upstreamMs: number): void {
  void reply.header(GATEWAY_OVERHEAD_HEADER, Math.max(0, reply.elapsedTime - upstreamMs).toFixed(3));
}

/** The error to throw, with `x-should-retry` (which OpenAI clients obey) and, given the upstream time, the overhead. */
export function withRetryHint(reply: FastifyReply, error: AppError, upstreamMs?: number): AppError {
  if (upstreamMs !== undefined) setOverheadHeader(reply, upstreamMs);
  void reply.header('x-should-retry', String(isRetryable(error)));
  return error;
}
