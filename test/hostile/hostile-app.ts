/** A real app on loopback with every route family mounted, for the hostile suite (issue 22 part 9). */
import { TEST_API_KEY, type TestApp } from '../support/app.js';
import type { FakeUpstream } from '../support/fake-upstream.js';
import { startTestGateway } from '../support/gateway.js';

export const OPERATOR = { authorization: `Bearer ${TEST_API_KEY}` } as const;

/** Cases per property: FUZZ_RUNS overrides (npm run fuzz sets it); the default keeps CI well under a minute. */
export function fuzzRuns(fallback: number): number {
  const fromEnv = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : fallback;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}
export interface OpenApiOperation {
  summary?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
}
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
  default?: unknown;
  $ref?: string;
}

export interface HostileApp {
  app: TestApp;
  upstream: FakeUpstream;
  url: string;
  document: OpenApiDocument;
  /** Creates an access token through the API, as an operator would. */
  createToken(
    agentName: string,
    scopes: string[],
    expiresInSeconds?: number,
  ): Promise<{ token: string; token_id: string }>;
  stop(): Promise<void>;
}

const yaml = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
  jwt: { secret: "\${TEST_JWT_SECRET}" }
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0 }
agents:
  - name: helper
    model: upstream/test-model
    system_prompt: You are a helpful assistant.
    max_iterations: 2
  - name: other
    model: upstream/test-model
    max_iterations: 2
webhook_settings: { max_attempts: 1, poll_interval_ms: 50, rate_limit: false }
webhooks:
  - name: shop
    verification: hmac-sha256
    secret: shop-secret
    handlers: [{ event: shop.*, agent: helper, prompt: "webhook {{id}}" }]
autopilot:
  model: upstream/test-model
`;

export async function startHostileApp(): Promise<HostileApp> {
  const gateway = await startTestGateway({ yaml });
  const { app, upstream } = gateway;
  const document = (await (await fetch(`${app.url}/openapi.json`)).json()) as OpenApiDocument;
  return {
    app,
    upstream,
    url: app.url,
    document,
    async createToken(agentName, scopes, expiresInSeconds) {
      const response = await fetch(`${app.url}/gateway/tokens`, {
        method: 'POST',
        headers: { ...OPERATOR, 'content-type': 'application/json' },
        body: JSON.stringify({
          agent_name: agentName,
          scopes,
          ...(expiresInSeconds ? { expires_in_seconds: expiresInSeconds } : {}),
        }),
      });
      if (response.status !== 201 && response.status !== 200)
        throw new Error(`token creation answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as { token: string; token_id: string };
    },
    stop: () => gateway.close(),
  };
}
