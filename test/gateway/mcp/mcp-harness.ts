import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TEST_API_KEY } from '../../support/app.js';

export const mcpYaml = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0, timeout_ms: 10000 }
agents:
  - name: helper
    model: upstream/test-model
    description: Answers questions.
    system_prompt: You are a helpful assistant.
  - name: timekeeper
    model: upstream/test-model
    system_prompt: You tell the time.
    tools: [get_current_time]
    max_iterations: 3
`;

/** The official SDK client on `{baseUrl}/mcp` with a bearer credential (the operator key by default). */
export async function connectMcp(baseUrl: string, credential = TEST_API_KEY): Promise<Client> {
  const client = new Client({ name: 'gateway-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${credential}` } },
  });
  await client.connect(transport);
  return client;
}

/** An access token of `agent` with `scopes`, made with the operator key. */
export async function createToken(
  baseUrl: string,
  agent: string,
  scopes: string[],
  extra: object = {},
): Promise<string> {
  const response = await fetch(`${baseUrl}/gateway/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ agent_name: agent, scopes, ...extra }),
  });
  if (response.status !== 201) throw new Error(`token not created: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}
