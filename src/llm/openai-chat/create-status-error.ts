import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { APICallError } from '@ai-sdk/provider';

/** Error bodies are read up to this size: enough for any provider's message, bounded against a runaway body. */
const MAX_ERROR_BODY_CHARS = 64 * 1024;

async function readBounded(body: Readable): Promise<string> {
  let text = '';
  body.setEncoding('utf8');
  try {
    for await (const chunk of body as AsyncIterable<string>) {
      text += chunk;
      if (text.length >= MAX_ERROR_BODY_CHARS) break;
    }
  } catch {
    // The status already says what failed; a body cut short only loses detail.
  }
  return text.slice(0, MAX_ERROR_BODY_CHARS);
}

/** `{"error": {"message"}}` (OpenAI), `{"message"}` (vLLM) or `{"error": "..."}`; else the text itself. */
function errorMessage(text: string, status: number): string {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null) {
      const { error, message } = body as { error?: unknown; message?: unknown };
      if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string')
        return (error as { message: string }).message;
      if (typeof error === 'string') return error;
      if (typeof message === 'string') return message;
    }
  } catch {
    // Not JSON: a proxy's plain-text or HTML page.
  }
  return text.trim().slice(0, 200) || STATUS_CODES[status] || 'no message';
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

/**
 * The error for an upstream answer of HTTP 300 or more, as the AI SDK builds it, so map-upstream-error
 * treats both clients alike (status, retryability, Retry-After). Redirects are not followed.
 */
export async function createStatusError(
  response: { statusCode: number; headers: IncomingHttpHeaders; body: Readable },
  request: { url: string; body: unknown },
): Promise<APICallError> {
  const responseBody = await readBounded(response.body);
  const location = response.statusCode < 400 ? response.headers.location : undefined;
  const message = location
    ? `redirected to ${String(location)}; set base_url to the final address`
    : errorMessage(responseBody, response.statusCode);
  return new APICallError({
    message,
    url: request.url,
    requestBodyValues: request.body,
    statusCode: response.statusCode,
    responseHeaders: flattenHeaders(response.headers),
    responseBody,
  });
}
