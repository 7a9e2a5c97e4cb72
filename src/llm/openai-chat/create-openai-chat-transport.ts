import { Pool } from 'undici';
import type { ProviderConfig } from '../../config/index.js';
import { injectTraceHeaders } from '../../telemetry/index.js';
import type { ModelTransport } from '../model-transport.js';
import { convertToChatRequest } from './convert-to-chat-request.js';
import { createChatPartReader } from './create-chat-part-reader.js';
import { createStatusError } from './create-status-error.js';

export type OpenAiCompatibleConfig = Extract<ProviderConfig, { type: 'openai-compatible' }>;

function createHeaders(config: OpenAiCompatibleConfig): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.api_key) headers.authorization = `Bearer ${config.api_key}`;
  // Lower-cased so a configured `Authorization` or `Content-Type` replaces ours instead of being sent twice.
  for (const [name, value] of Object.entries(config.headers)) headers[name.toLowerCase()] = value;
  return headers;
}

/**
 * What the response body buffers while its run waits for a client (undici's default: 64 KiB). A run held back
 * by a stalled client keeps this buffer full and one read of it in the parser, for as long as it waits.
 */
const BODY_HIGH_WATER_MARK = 16 * 1024;

/**
 * A direct Chat Completions client for OpenAI-compatible servers: one keep-alive undici Pool per provider,
 * SSE parsed with eventsource-parser and chunks with JSON.parse. It costs a fraction of the AI SDK path
 * (fetch, web streams and a zod parse per chunk), which matters because every agent step goes through it.
 */
export function createOpenAiChatTransport(config: OpenAiCompatibleConfig): ModelTransport {
  const url = new URL(`${config.base_url.replace(/\/+$/, '')}/chat/completions`);
  const path = `${url.pathname}${url.search}`;
  const headers = createHeaders(config);
  // The per-call deadline (timeout_ms) bounds every call, so undici's own 300 s header and body timeouts are off.
  const pool = new Pool(url.origin, { headersTimeout: 0, bodyTimeout: 0 });
  return {
    async openStream(modelId, request, signal) {
      // An aborted call must not even open a connection.
      signal.throwIfAborted();
      const requestBody = convertToChatRequest(modelId, request);
      const response = await pool.request({
        method: 'POST',
        path,
        headers: injectTraceHeaders(headers, request.trace),
        body: JSON.stringify(requestBody),
        signal,
        highWaterMark: BODY_HIGH_WATER_MARK,
      });
      if (response.statusCode >= 300) throw await createStatusError(response, { url: url.href, body: requestBody });
      return createChatPartReader(response.body);
    },
  };
}
