import { AppError, UpstreamError, type ErrorCode } from '../../errors.js';

/** What kind of failure ended an execution; healing recommends by class. */
export const FAILURE_CLASSES = [
  'upstream',
  'rate_limited',
  'auth',
  'budget_exceeded',
  'tool_error',
  'guardrail_block',
  'invalid_input',
  'cancelled',
  'internal',
] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

const INVALID_INPUT_CODES = new Set<ErrorCode>([
  'invalid_slot',
  'missing_slots',
  'invalid_blueprint',
  'unknown_provider',
  'invalid_request',
]);
const TOOL_CODES = new Set<string>([
  'unknown_tool',
  'invalid_arguments',
  'tool_failed',
  'tool_timeout',
  'max_iterations_exceeded',
]);

/** Classifies the error that failed a node run (or the execution before any run). */
export function classifyFailure(error: unknown): FailureClass {
  if (!(error instanceof AppError)) return 'internal';
  if (error.code === 'budget_exceeded') return 'budget_exceeded';
  if (error.type === 'cancelled_error') return 'cancelled';
  if (INVALID_INPUT_CODES.has(error.code)) return 'invalid_input';
  if (TOOL_CODES.has(error.code) || error.code.startsWith('tool_')) return 'tool_error';
  if (error.code.startsWith('guardrail') || error.code === 'content_filtered') return 'guardrail_block';
  const status = error instanceof UpstreamError ? error.upstreamStatus : undefined;
  if (status === 429 || error.type === 'rate_limit_error' || error.code.includes('quota')) return 'rate_limited';
  if (status === 401 || status === 403 || error.type === 'authentication_error') return 'auth';
  if (error instanceof UpstreamError || error.type === 'timeout_error' || error.type === 'upstream_error')
    return 'upstream';
  return 'internal';
}
