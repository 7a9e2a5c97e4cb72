import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { ERROR_TYPE } from './gen-ai-attributes.js';

/**
 * Marks a span failed: status ERROR and `error.type` (the error's lower_snake code when it has one, else its
 * class name), plus an exception event.
 */
export function recordSpanError(span: Span, error: unknown): void {
  if (!span.isRecording()) return;
  span.setAttribute(ERROR_TYPE, errorTypeOf(error));
  const message = error instanceof Error ? error.message : String(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  if (error instanceof Error) span.recordException(error);
}

export function errorTypeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    if (error instanceof Error) return error.name;
  }
  return '_OTHER';
}
