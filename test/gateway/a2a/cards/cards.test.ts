import { request as httpRequest } from 'node:http';
import { parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../../../support/app.js';
import { ClientFactory } from '@a2a-js/sdk/client';
import {
  a2aYaml,
  answerText,
  bearer,
  discover,
  rpc,
  SECRET_PROMPT,
  startA2aGateway,
  userMessage,
  type A2aGateway,
} from '../a2a-harness.js';

/** The list of every published agent's card; the host root serves one standard card. */
const LIST = '/.well-known/agent-cards.json';

describe('A2A agent cards', () => {
  let gateway: A2aGateway;
  beforeAll(async () => {
    gateway = await startA2aGateway();
  });
  afterAll(() => gateway.stop());

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${gateway.app.url}${path}`, { headers });

  it(`lists the published agents as spec cards at ${LIST} without credentials, never their system prompt`, async () => {
    const response = await get(LIST);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(SECRET_PROMPT);
    const cards = JSON.parse(text) as Record<string, unknown>[];
    expect(cards.map((card) => card.name)).toEqual(['helper', 'other']);
    expect(cards[0]).toEqual({
      name: 'helper',
      description: 'Answers questions about anything.',
      capabilities: ['answering questions', 'summarizing'],
      endpoint: `${gateway.app.url}/a2a/helper/`,
      model: 'upstream/test-model',
    });
  });

  it("gives an endpoint the official SDK starts from, and that answers JSON-RPC with or without its '/'", async () => {
    const cards = (await (await get(LIST)).json()) as { name: string; endpoint: string }[];
    const { endpoint } = cards.find((card) => card.name === 'helper')!;
    const client = await discover(endpoint);
    expect(client.protocolVersion).toBe('1.0');
    for (const url of [endpoint, endpoint.replace(/\/$/, '')]) {
      const response = await rpc(
        url,
        { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'nope' } },
        { authorization: `Bearer ${TEST_API_KEY}`, 'a2a-version': '1.0' },
      );
      expect(response.status).toBe(200);
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32001);
    }
  });

  it("serves an agent's A2A 1.0 card to 1.0 clients: interfaces, streaming, bearer scheme, skills", async () => {
    const response = await get('/a2a/helper/.well-known/agent-card.json', { 'a2a-version': '1.0' });
    expect(response.status).toBe(200);
    expect(response.headers.get('vary')).toMatch(/A2A-Version/i);
    const text = await response.text();
    expect(text).not.toContain(SECRET_PROMPT);
    const card = JSON.parse(text);
    const endpoint = `${gateway.app.url}/a2a/helper`;
    expect(card.supportedInterfaces).toEqual([
      { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ]);
    expect(card.capabilities).toMatchObject({ streaming: true });
    expect(card.securitySchemes.bearer.httpAuthSecurityScheme).toMatchObject({ scheme: 'Bearer' });
    expect(Object.keys(card.securityRequirements[0].schemes)).toEqual(['bearer']);
    expect(card.skills.map((skill: { name: string }) => skill.name)).toEqual([
      'answering questions',
      'summarizing',
      'get_current_time',
    ]);
  });

  it('serves v0.3 peers (no A2A-Version) the card with url, preferredTransport and protocolVersion "0.3.0"', async () => {
    const card = (await (await get('/a2a/helper/.well-known/agent-card.json')).json()) as Record<string, unknown>;
    expect(card).toMatchObject({
      name: 'helper',
      url: `${gateway.app.url}/a2a/helper`,
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3.0',
      capabilities: { streaming: true },
      securitySchemes: { bearer: { type: 'http', scheme: 'Bearer' } },
      security: [{ bearer: [] }],
    });
    expect(card.supportedInterfaces as unknown[]).toHaveLength(2);
    // A v0.3 reader (which ignores supportedInterfaces) gets a usable JSON-RPC interface from the top-level fields.
    const { supportedInterfaces: _embedded, ...v03Only } = card;
    const parsed = parseLegacyAgentCard(v03Only);
    expect(parsed.supportedInterfaces[0]).toMatchObject({
      url: `${gateway.app.url}/a2a/helper`,
      protocolBinding: 'JSONRPC',
      protocolVersion: '0.3.0',
    });
  });

  it('answers 404 at the host root when several agents are published and a2a.default_agent names none, pointing to the list', async () => {
    const response = await get('/.well-known/agent-card.json');
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(LIST);
  });

  it('answers 404 for unknown agents and agents with a2a: false', async () => {
    expect((await get('/a2a/hidden/.well-known/agent-card.json')).status).toBe(404);
    expect((await get('/a2a/nobody/.well-known/agent-card.json')).status).toBe(404);
  });
});

describe('the host root card', () => {
  it.each([
    ['a2a.default_agent names it', `${a2aYaml()}\na2a: { default_agent: helper }\n`],
    [
      'it is the only agent published',
      a2aYaml().replace(/\n {2}- name: other\n {4}model: upstream\/test-model\n/, '\n'),
    ],
  ])(
    "is the agent's standard card when %s: the official client reaches the agent from the host alone",
    async (_case, yaml) => {
      const gateway = await startA2aGateway({ yaml });
      try {
        const root = await (await fetch(`${gateway.app.url}/.well-known/agent-card.json`)).json();
        const own = await (await fetch(`${gateway.app.url}/a2a/helper/.well-known/agent-card.json`)).json();
        expect(root).toEqual(own);
        expect(root).toMatchObject({ name: 'helper', protocolVersion: '0.3.0', url: `${gateway.app.url}/a2a/helper` });

        const client = await new ClientFactory().createFromUrl(gateway.app.url);
        expect(client.protocolVersion).toBe('1.0');
        gateway.upstream.enqueue({ kind: 'text', text: 'Hello from the root.' });
        const { token } = await gateway.createToken('helper');
        const task = await client.sendMessage(userMessage('hi'), bearer(token));
        expect(answerText(task)).toBe('Hello from the root.');
      } finally {
        await gateway.stop();
      }
    },
  );
});

describe('A2A cards with server.public_url', () => {
  it('publish the configured base URL instead of the request host', async () => {
    const gateway = await startA2aGateway({
      yaml: `${a2aYaml()}\nserver:\n  public_url: https://agents.example.com/gw/\n`,
    });
    try {
      const cards = (await (await fetch(`${gateway.app.url}${LIST}`)).json()) as {
        endpoint: string;
      }[];
      expect(cards[0].endpoint).toBe('https://agents.example.com/gw/a2a/helper/');
      const card = (await (await fetch(`${gateway.app.url}/a2a/helper/.well-known/agent-card.json`)).json()) as {
        url: string;
      };
      expect(card.url).toBe('https://agents.example.com/gw/a2a/helper');
    } finally {
      await gateway.stop();
    }
  });
});

/** A GET with any Host header (fetch does not let a caller set it). */
function getWithHost(
  url: string,
  headers: Record<string, string>,
): Promise<{ headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('A2A cards and hostile requests', () => {
  const yaml = a2aYaml({
    helperTools: '[get_current_time, http_request]',
    extra: 'tools:\n  - { builtin: http_request, allowed_hosts: [internal-billing.corp, "10.1.2.3"] }\n',
  });

  it('never take their URLs from the Host header, and never show tool allow-lists', async () => {
    const gateway = await startA2aGateway({ yaml });
    try {
      const own = `${gateway.app.url}/a2a/helper`;
      const hostile = { host: 'evil.example:666', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
      const list = await getWithHost(`${gateway.app.url}${LIST}`, hostile);
      expect((JSON.parse(list.body) as { endpoint: string }[])[0].endpoint).toBe(`${own}/`);
      for (const version of ['1.0', '0.3']) {
        const card = await getWithHost(`${gateway.app.url}/a2a/helper/.well-known/agent-card.json`, {
          ...hostile,
          'a2a-version': version,
        });
        expect(card.body).not.toContain('evil.example');
        expect(card.body).not.toMatch(/internal-billing|10\.1\.2\.3|Allowed hosts/);
        expect(card.body).toContain(own);
        expect(card.headers.vary).toBe('A2A-Version');
        expect(JSON.parse(card.body).skills.map((skill: { name: string }) => skill.name)).toContain('http_request');
      }
    } finally {
      await gateway.stop();
    }
  });

  it('follow the forwarded host only with server.trust_proxy, and then say they vary by it', async () => {
    const gateway = await startA2aGateway({ yaml: `${yaml}\nserver: { trust_proxy: true }\n` });
    try {
      const card = await getWithHost(`${gateway.app.url}/a2a/helper/.well-known/agent-card.json`, {
        host: 'internal:8000',
        'x-forwarded-host': 'agents.example.com',
        'x-forwarded-proto': 'https',
      });
      expect(JSON.parse(card.body).url).toBe('https://agents.example.com/a2a/helper');
      expect(card.headers.vary).toBe('A2A-Version, Host, X-Forwarded-Host, X-Forwarded-Proto');
      const list = await getWithHost(`${gateway.app.url}${LIST}`, { host: 'gw.example:8443' });
      expect((JSON.parse(list.body) as { endpoint: string }[])[0].endpoint).toBe('http://gw.example:8443/a2a/helper/');
      expect(list.headers.vary).toBe('Host, X-Forwarded-Host, X-Forwarded-Proto');
    } finally {
      await gateway.stop();
    }
  });
});

describe('A2A feature flag', () => {
  it('mounts nothing when gateway.a2a is false', async () => {
    const gateway = await startA2aGateway({ yaml: `${a2aYaml()}\ngateway:\n  a2a: false\n` });
    try {
      const headers = { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' };
      expect((await fetch(`${gateway.app.url}/.well-known/agent-card.json`, { headers })).status).toBe(404);
      expect((await fetch(`${gateway.app.url}/a2a/helper`, { method: 'POST', body: '{}', headers })).status).toBe(404);
    } finally {
      await gateway.stop();
    }
  });
});
