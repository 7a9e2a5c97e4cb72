import OpenAI from 'openai';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { startTestApp, TEST_API_KEY, type TestApp } from '../../support/app.js';

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
  const upstream = await startFakeUpstream();
  const app = await startTestApp(options.yaml ?? gatewayYaml(), {
    env: { UPSTREAM_URL: upstream.url, ...options.env },
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
  });
  const clientWith = (apiKey: string) => new OpenAI({ baseURL: `${app.url}/v1`, apiKey, maxRetries: 0 });
  return {
    app,
    upstream,
    client: clientWith(TEST_API_KEY),
    clientWith,
    async stop() {
      await app.stop();
      await upstream.close();
    },
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
