import type { FakeUpstream } from '../../support/fake-upstream.js';
import { TEST_API_KEY, type TestApp } from '../../support/app.js';
import { startTestGateway } from '../../support/gateway.js';

export const aguiYaml = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0, timeout_ms: 10000 }
agents:
  - name: helper
    model: upstream/test-model
    system_prompt: You are a helpful assistant.
  - name: timekeeper
    model: upstream/test-model
    system_prompt: You tell the time.
    tools: [get_current_time]
    max_iterations: 3
  - name: other
    model: upstream/test-model
`;

export interface AguiGateway {
  app: TestApp;
  upstream: FakeUpstream;
  url(path: string): string;
  stop(): Promise<void>;
}

/** A fake upstream plus a gateway in front of it. */
export async function startAguiGateway(yaml = aguiYaml): Promise<AguiGateway> {
  const gateway = await startTestGateway({ yaml });
  return {
    app: gateway.app,
    upstream: gateway.upstream,
    url: (path) => `${gateway.url}${path}`,
    stop: () => gateway.close(),
  };
}

export const authHeaders = { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' };

export interface SseMessage {
  id?: string;
  event?: string;
  data: any;
}

/** Parses an SSE body by the spec's rules for our LF framing: blocks split by a blank line; comments skipped. */
export function parseSse(text: string): SseMessage[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .flatMap((block) => {
      const message: Partial<SseMessage> & { lines: string[] } = { lines: [] };
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const [field, ...rest] = line.split(': ');
        const value = rest.join(': ');
        if (field === 'id') message.id = value;
        else if (field === 'event') message.event = value;
        else if (field === 'data') message.lines.push(value);
      }
      if (message.lines.length === 0) return [];
      return [{ id: message.id, event: message.event, data: JSON.parse(message.lines.join('\n')) }];
    });
}

export async function postRun(
  gateway: AguiGateway,
  body: object,
  query = '',
  init: RequestInit = {},
): Promise<Response> {
  return fetch(gateway.url(`/agui/runs${query}`), {
    method: 'POST',
    headers: authHeaders,
    body: JSON.stringify(body),
    ...init,
  });
}

/** Type names of parsed events, checking on the way that each `event:` line names its data's type. */
export function typesOf(messages: SseMessage[]): string[] {
  return messages.map((message) => {
    if (message.event !== message.data.type)
      throw new Error(`event line ${message.event} but data type ${message.data.type}`);
    return message.event as string;
  });
}

/** The `error` object of a JSON error answer. */
export async function errorOf(response: Response): Promise<{ type: string; code: string; message: string }> {
  return ((await response.json()) as { error: { type: string; code: string; message: string } }).error;
}
