import type { ProviderConfig, ProvidersConfig } from '../../src/config/index.js';
import { createModelClient, type ModelClient, type ModelStreamPart } from '../../src/llm/index.js';
import type { FakeUpstream } from '../support/fake-upstream.js';

export const FAKE_API_KEY = 'sk-fake-secret-key-0123456789';

export interface RecordingLogger {
  warnings: { obj: object; msg: string }[];
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export function recordingLogger(): RecordingLogger {
  const warnings: { obj: object; msg: string }[] = [];
  return { warnings, warn: (obj, msg) => warnings.push({ obj, msg }), info: () => undefined };
}

/** A client whose provider "up" (openai-compatible) points at the fake upstream, with fast backoff. */
export function clientFor(upstream: FakeUpstream, overrides: Partial<Extract<ProviderConfig, { type: 'openai-compatible' }>> = {}, logger = recordingLogger()): { client: ModelClient; logger: RecordingLogger } {
  const providers: ProvidersConfig = {
    up: { type: 'openai-compatible', base_url: upstream.url, api_key: FAKE_API_KEY, timeout_ms: 5_000, max_retries: 2, headers: {}, ...overrides },
  };
  return { client: createModelClient({ providers, logger, retry: { baseDelayMs: 10, maxDelayMs: 50 } }), logger };
}

export async function collect(stream: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** Runs a stream to its failure and returns the error (and the parts seen before it). */
export async function collectFailure(stream: AsyncIterable<ModelStreamPart>): Promise<{ error: unknown; parts: ModelStreamPart[] }> {
  const parts: ModelStreamPart[] = [];
  try {
    for await (const part of stream) parts.push(part);
  } catch (error) {
    return { error, parts };
  }
  throw new Error(`expected the stream to fail, got ${JSON.stringify(parts)}`);
}

export const USER_HELLO = [{ role: 'user' as const, content: 'hello' }];
