import { randomUUID } from 'node:crypto';
import { AgentCard, SendMessageRequest, type Message, type Task } from '@a2a-js/sdk';
import { Client, ClientFactory } from '@a2a-js/sdk/client';
import { LegacyJsonRpcTransport } from '@a2a-js/sdk/compat/v0_3/client';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { startTestApp, TEST_API_KEY, type TestApp } from '../../support/app.js';

export const SECRET_PROMPT = 'SECRET-PROMPT-never-publish-this';

/** Agents for the A2A tests; `extra` is appended to the YAML (e.g. an `a2a:` section with remotes). */
export const a2aYaml = ({ helperTools = '[get_current_time]', extra = '' } = {}) => `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0, timeout_ms: 10000 }
agents:
  - name: helper
    model: upstream/test-model
    description: Answers questions about anything.
    system_prompt: ${SECRET_PROMPT}
    capabilities: [answering questions, summarizing]
    tools: ${helperTools}
  - name: other
    model: upstream/test-model
  - name: hidden
    model: upstream/test-model
    a2a: false
${extra}
`;

export interface A2aGateway {
  app: TestApp;
  upstream: FakeUpstream;
  /** The agent's A2A base URL, with the trailing slash the SDK needs to find `.well-known/agent-card.json` below it. */
  agentUrl(name: string): string;
  createToken(agent: string, scopes?: string[], extra?: object): Promise<{ token: string; token_id: string }>;
  revokeToken(tokenId: string): Promise<void>;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export async function startA2aGateway(
  options: {
    yaml?: string;
    env?: NodeJS.ProcessEnv;
    dataDir?: string;
    databaseUrl?: string;
    upstream?: FakeUpstream;
  } = {},
): Promise<A2aGateway> {
  const upstream = options.upstream ?? (await startFakeUpstream());
  const app = await startTestApp(options.yaml ?? a2aYaml(), {
    env: { UPSTREAM_URL: upstream.url, ...options.env },
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
  });
  const admin = { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' };
  return {
    app,
    upstream,
    agentUrl: (name) => `${app.url}/a2a/${name}/`,
    async createToken(agent, scopes = ['a2a'], extra = {}) {
      const response = await fetch(`${app.url}/gateway/tokens`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ agent_name: agent, scopes, ...extra }),
      });
      if (!response.ok) throw new Error(`token creation failed: ${response.status} ${await response.text()}`);
      return (await response.json()) as { token: string; token_id: string };
    },
    async revokeToken(tokenId) {
      const response = await fetch(`${app.url}/gateway/tokens/${tokenId}/revoke`, {
        method: 'POST',
        headers: { authorization: admin.authorization },
      });
      if (!response.ok) throw new Error(`revoke failed: ${response.status}`);
    },
    async stop(stopOptions) {
      await app.stop(stopOptions);
      if (!options.upstream) await upstream.close();
    },
  };
}

/** The official SDK client, discovering the agent from its card. */
export function discover(url: string): Promise<Client> {
  return new ClientFactory().createFromUrl(url);
}

export function bearer(token: string) {
  return { serviceParameters: { Authorization: `Bearer ${token}` } };
}

/** A user's text message; `ids` continues a context (contextId) or answers a task waiting for input (taskId). */
export function userMessage(text: string, ids: { contextId?: string; taskId?: string } = {}): SendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...ids },
  });
}

/** The official SDK client speaking v0.3 JSON-RPC to the agent (as a v0.3 peer would). */
export async function discoverLegacy(url: string): Promise<Client> {
  return new Client(new LegacyJsonRpcTransport({ endpoint: url.replace(/\/+$/, '') }), await fetchCard(url));
}

/** The agent's public A2A 1.0 card. */
export async function fetchCard(url: string): Promise<AgentCard> {
  const response = await fetch(`${url}.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } });
  return AgentCard.fromJSON(await response.json());
}

/** The text of a task's answer artifact (or a bare message reply). */
export function answerText(result: Task | Message): string {
  const parts = 'messageId' in result ? result.parts : result.artifacts.flatMap((artifact) => artifact.parts);
  return parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}

/** A raw JSON-RPC POST, as any HTTP client (or a v0.3 peer without an SDK) would send it. */
export async function rpc(url: string, body: object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}
