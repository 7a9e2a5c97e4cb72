import type { ProviderConfig, ProvidersConfig } from '../../src/config/index.js';
import { createModelClient, type ModelClient, type ModelStreamPart } from '../../src/llm/index.js';
import { SILENT_LOGGER, type Logger } from '../../src/logger.js';

export const FAKE_API_KEY = 'sk-fake-secret-key-0123456789';

export interface RecordingLogger extends Logger {
  warnings: { obj: object; msg: string }[];
}

export function recordingLogger(): RecordingLogger {
  const warnings: { obj: object; msg: string }[] = [];
  return {
    ...SILENT_LOGGER,
    warnings,
    warn: (obj, msg) => void warnings.push({ obj, msg }),
  };
}

/** The provider types behind a Chat Completions upstream: openai-compatible (lean client) and openai (AI SDK). */
export const CHAT_PROVIDER_TYPES = ['openai-compatible', 'openai'] as const;
export type ChatProviderType = (typeof CHAT_PROVIDER_TYPES)[number];

type ChatProviderOverrides = Partial<Omit<Extract<ProviderConfig, { type: 'openai-compatible' }>, 'type'>>;

/** The config of provider "up" of the given type, pointing at `baseUrl`. */
export function chatProvider(
  type: ChatProviderType,
  baseUrl: string,
  overrides: ChatProviderOverrides = {},
): ProviderConfig {
  const settings = {
    base_url: baseUrl,
    api_key: FAKE_API_KEY,
    timeout_ms: 5_000,
    max_retries: 2,
    headers: {},
    ...overrides,
  };
  return type === 'openai' ? { type, ...settings, api_key: settings.api_key ?? FAKE_API_KEY } : { type, ...settings };
}

/** A client whose provider "up" (openai-compatible unless `type` says otherwise) points at the upstream, with fast backoff. */
export function clientFor(
  upstream: { url: string },
  overrides: ChatProviderOverrides = {},
  logger = recordingLogger(),
  type: ChatProviderType = 'openai-compatible',
): { client: ModelClient; logger: RecordingLogger } {
  const providers: ProvidersConfig = { up: chatProvider(type, upstream.url, overrides) };
  return { client: createModelClient({ providers, logger, retry: { baseDelayMs: 10, maxDelayMs: 50 } }), logger };
}

export async function collect(stream: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** Runs a stream to its failure and returns the error (and the parts seen before it). */
export async function collectFailure(
  stream: AsyncIterable<ModelStreamPart>,
): Promise<{ error: unknown; parts: ModelStreamPart[] }> {
  const parts: ModelStreamPart[] = [];
  try {
    for await (const part of stream) parts.push(part);
  } catch (error) {
    return { error, parts };
  }
  throw new Error(`expected the stream to fail, got ${JSON.stringify(parts)}`);
}

export const USER_HELLO = [{ role: 'user' as const, content: 'hello' }];
