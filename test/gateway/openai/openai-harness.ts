import type OpenAI from 'openai';
import type { FakeUpstream } from '../../support/fake-upstream.js';
import { TEST_API_KEY, type TestApp } from '../../support/app.js';
import { startTestGateway } from '../../support/gateway.js';

/** Agents used across the OpenAI gateway tests; the upstream URL is filled in per gateway. */
export const gatewayYaml = ({ timeoutMs = 10_000, openaiCompat = true } = {}) => `
gateway:
  openai_compat: ${openaiCompat}
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0, timeout_ms: ${timeoutMs} }
agents:
  - name: helper
    model: upstream/test-model
    system_prompt: You are a helpful assistant.
    temperature: 0.2
  - name: timekeeper
    model: upstream/test-model
    system_prompt: You tell the time.
    tools: [get_current_time]
    max_iterations: 3
  - name: other
    model: upstream/test-model
`;

export interface GatewayHarness {
  app: TestApp;
  upstream: FakeUpstream;
  client: OpenAI;
  /** A client with another credential (an access token, a wrong key). */
  clientWith(apiKey: string): OpenAI;
  stop(): Promise<void>;
}

/** A fake upstream plus a gateway in front of it, and an official OpenAI client pointed at the gateway. */
export async function startGateway(
  options: { yaml?: string; env?: NodeJS.ProcessEnv; databaseUrl?: string; dataDir?: string } = {},
): Promise<GatewayHarness> {
  const gateway = await startTestGateway({ ...options, yaml: options.yaml ?? gatewayYaml() });
  return {
    app: gateway.app,
    upstream: gateway.upstream,
    client: gateway.openai,
    clientWith: gateway.openaiWith,
    stop: () => gateway.close(),
  };
}

/** Reads an SSE response body into its `data:` payloads. */
export async function readSse(response: Response): Promise<string[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length));
}

export const authHeaders = { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' };
