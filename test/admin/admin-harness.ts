import type OpenAI from 'openai';
import { TEST_API_KEY, type TestApp } from '../support/app.js';
import type { FakeUpstream } from '../support/fake-upstream.js';
import { startTestGateway } from '../support/gateway.js';

/** Agents of the admin tests; the upstream URL is filled in per gateway. */
export const adminYaml = (extra = '') => `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0, timeout_ms: 120000 }
agents:
  - name: helper
    model: upstream/test-model
    system_prompt: You are a helpful assistant.
    description: Answers questions.
    capabilities: [chat]
    temperature: 0.2
    max_iterations: 4
  - name: timekeeper
    model: upstream/test-model
    system_prompt: You tell the time.
    tools: [get_current_time]
${extra}`;

export interface AdminHarness {
  app: TestApp;
  upstream: FakeUpstream;
  client: OpenAI;
  /** Calls the admin API with the operator key; the body is parsed JSON. */
  admin<T = any>(method: string, path: string, init?: { key?: string }): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

export async function startAdminHarness(
  options: { yaml?: string; env?: NodeJS.ProcessEnv; databaseUrl?: string; dataDir?: string } = {},
): Promise<AdminHarness> {
  const gateway = await startTestGateway({ ...options, yaml: options.yaml ?? adminYaml() });
  return {
    app: gateway.app,
    upstream: gateway.upstream,
    client: gateway.openai,
    admin: (method, path, init) => callAdmin(gateway.url, method, path, init?.key ?? gateway.apiKey),
    stop: () => gateway.close(),
  };
}

export async function callAdmin<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  key = TEST_API_KEY,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${baseUrl}/api/v1/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** Reads a streamed completion in the background; `text()` is everything received so far. */
export function readCompletion(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) {
  const pieces: string[] = [];
  let failure: unknown;
  const done = (async () => {
    try {
      for await (const chunk of stream) {
        const content = chunk.choices[0]?.delta?.content;
        if (content) pieces.push(content);
      }
    } catch (error) {
      failure = error;
    }
  })();
  return { pieces, done, text: () => pieces.join(''), failure: () => failure };
}

/** Reads an SSE response into {event, data} pairs as they arrive. */
export function readSse(response: Response) {
  const events: { event: string; data: any }[] = [];
  const done = (async () => {
    let buffer = '';
    for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) });
      }
    }
  })();
  const text = () =>
    events
      .filter((item) => /TEXT_MESSAGE_CONTENT|text_delta/.test(item.event))
      .map((item) => item.data.delta)
      .join('');
  return { events, done, text };
}
