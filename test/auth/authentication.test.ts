import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../support/databases.js';
import { tempDataDir } from '../support/databases.js';
import { API_KEY, JWT_SECRET, signJwt, startAuthTestServer, type AuthTestServer } from './auth-test-server.js';

interface Answer {
  status: number;
  body: { principal?: Record<string, unknown> | null; error?: { type: string; code: string; message: string } };
}

let gw: AuthTestServer;
let sqlite: TestDatabase;

beforeAll(async () => {
  const temp = tempDataDir();
  sqlite = { dataDir: temp.dataDir, drop: async () => temp.remove() };
  gw = await startAuthTestServer({ database: sqlite, apiKeys: [API_KEY, 'sat-looks-like-a-token-but-is-an-api-key'] });
});
afterAll(async () => {
  await gw.close();
  await sqlite.drop();
});

async function call(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const headers = { ...init.headers, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) };
  const response = await fetch(`${gw.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });
const chat = (agent: string, headers: Record<string, string>) =>
  call(`/probe/agents/${agent}/chat`, { method: 'POST', headers, body: {} });

async function issue(
  input: { agent_name?: string; scopes?: string[]; single_use?: boolean; expires_in_seconds?: number } = {},
) {
  const created = await gw.tokens.create({ agent_name: 'helper', ...input });
  return created;
}

function expectError(answer: Answer, status: number, code: string): void {
  expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status, code });
  expect(answer.body.error?.type).toBe(status === 401 ? 'authentication_error' : 'permission_error');
}

describe('credentials accepted', () => {
  it('public routes need none', async () => {
    expect(await call('/probe/public')).toEqual({ status: 200, body: { principal: null } });
  });

  it('a JWT in Authorization: Bearer', async () => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    const answer = await call('/probe/operator', { headers: bearer(await signJwt({ exp })) });
    expect(answer).toEqual({
      status: 200,
      body: { principal: { kind: 'operator', method: 'jwt', subject: 'operator-1', expiresAtMs: exp * 1000 } },
    });
  });

  it('an API key in X-API-Key or in Authorization: Bearer', async () => {
    // The subject is a fingerprint of the key (what an operator creates is its own), never the key itself.
    const expected = {
      status: 200,
      body: {
        principal: {
          kind: 'operator',
          method: 'api_key',
          subject: `key_${createHash('sha256').update(API_KEY).digest('hex').slice(0, 16)}`,
        },
      },
    };
    expect(await call('/probe/operator', { headers: { 'x-api-key': API_KEY } })).toEqual(expected);
    expect(await call('/probe/operator', { headers: bearer(API_KEY) })).toEqual(expected);
    expect(await call('/probe/operator', { headers: { authorization: `bearer   ${API_KEY}` } })).toEqual(expected);
  });

  it('an access token in Authorization: Bearer', async () => {
    const { token, token_id } = await issue();
    const answer = await chat('helper', bearer(token));
    expect(answer.status).toBe(200);
    expect(answer.body.principal).toMatchObject({
      kind: 'access_token',
      tokenId: token_id,
      agentName: 'helper',
      scopes: ['chat'],
    });
  });

  it('the service_auth cookie carries any of the three', async () => {
    const { token } = await issue();
    const cookie = (value: string) => ({ cookie: `theme=dark; service_auth=${encodeURIComponent(value)}` });
    expect((await call('/probe/operator', { headers: cookie(API_KEY) })).body.principal).toMatchObject({
      method: 'api_key',
    });
    expect((await call('/probe/operator', { headers: cookie(await signJwt()) })).body.principal).toMatchObject({
      method: 'jwt',
    });
    // A state change with the cookie needs our own Origin (see test/http/cookie-csrf.test.ts).
    expect((await chat('helper', { ...cookie(token), origin: gw.url })).body.principal).toMatchObject({
      kind: 'access_token',
    });
  });

  it('a malformed service_auth cookie is a 401, not a crash', async () => {
    expectError(
      await call('/probe/operator', { headers: { cookie: 'service_auth=%E0%A4%A' } }),
      401,
      'invalid_credentials',
    );
  });
});

describe('the order is JWT, then API key, then access token', () => {
  it('a credential that is a valid JWT is taken as a JWT even when it is also an API key', async () => {
    const jwt = await signJwt();
    const both = await startAuthTestServer({ database: sqlite, apiKeys: [jwt] });
    try {
      const answer = await fetch(`${both.url}/probe/operator`, { headers: bearer(jwt) });
      expect(((await answer.json()) as Answer['body']).principal).toMatchObject({ method: 'jwt' });
      // A JWT-shaped API key whose signature does not verify still matches as an API key.
      const forged = await signJwt({ secret: 'some-other-secret-0123456789' });
      const keyed = await startAuthTestServer({ database: sqlite, apiKeys: [forged] });
      try {
        const fallback = await fetch(`${keyed.url}/probe/operator`, { headers: bearer(forged) });
        expect(((await fallback.json()) as Answer['body']).principal).toMatchObject({ method: 'api_key' });
      } finally {
        await keyed.close();
      }
    } finally {
      await both.close();
    }
  });

  it('an API key is matched before the sat- access-token lookup', async () => {
    const answer = await call('/probe/operator', { headers: bearer('sat-looks-like-a-token-but-is-an-api-key') });
    expect(answer).toMatchObject({ status: 200, body: { principal: { kind: 'operator', method: 'api_key' } } });
  });
});

describe('failures', () => {
  it('no credentials: 401 missing_credentials', async () => {
    expectError(await call('/probe/operator'), 401, 'missing_credentials');
    expectError(await chat('helper', {}), 401, 'missing_credentials');
    expectError(await call('/gateway/tokens'), 401, 'missing_credentials');
  });

  it('an Authorization header that is not Bearer: 401', async () => {
    expectError(
      await call('/probe/operator', {
        headers: { authorization: `Basic ${Buffer.from(`x:${API_KEY}`).toString('base64')}` },
      }),
      401,
      'invalid_authorization_header',
    );
  });

  it('a JWT with a bad signature: 401 jwt_invalid', async () => {
    expectError(
      await call('/probe/operator', { headers: bearer(await signJwt({ secret: 'not-the-configured-secret-0123' })) }),
      401,
      'jwt_invalid',
    );
    const jwt = await signJwt();
    const tampered = `${jwt.slice(0, jwt.lastIndexOf('.') + 1)}${'A'.repeat(43)}`;
    expectError(await call('/probe/operator', { headers: bearer(tampered) }), 401, 'jwt_invalid');
  });

  it('a JWT signed with another algorithm: 401 jwt_invalid', async () => {
    expectError(
      await call('/probe/operator', { headers: bearer(await signJwt({ alg: 'HS512' })) }),
      401,
      'jwt_invalid',
    );
  });

  it('an expired JWT: 401 jwt_expired', async () => {
    expectError(
      await call('/probe/operator', { headers: bearer(await signJwt({ exp: Math.floor(Date.now() / 1000) - 3600 })) }),
      401,
      'jwt_expired',
    );
  });

  it('a JWT without exp: 401 jwt_invalid_claims', async () => {
    const answer = await call('/probe/operator', { headers: bearer(await signJwt({ exp: null })) });
    expectError(answer, 401, 'jwt_invalid_claims');
    expect(answer.body.error?.message).toContain('"exp"');
  });

  it('a JWT with the wrong issuer or audience when they are configured: 401 jwt_invalid_claims', async () => {
    const strict = await startAuthTestServer({
      database: sqlite,
      jwt: { secret: JWT_SECRET, issuer: 'https://issuer.example', audience: 'agent-gateway' },
    });
    try {
      const status = async (jwt: string) => {
        const response = await fetch(`${strict.url}/probe/operator`, { headers: bearer(jwt) });
        return [response.status, ((await response.json()) as Answer['body']).error?.code];
      };
      expect(await status(await signJwt({ issuer: 'https://issuer.example', audience: 'agent-gateway' }))).toEqual([
        200,
        undefined,
      ]);
      expect(await status(await signJwt({ issuer: 'https://evil.example', audience: 'agent-gateway' }))).toEqual([
        401,
        'jwt_invalid_claims',
      ]);
      expect(await status(await signJwt({ issuer: 'https://issuer.example', audience: 'someone-else' }))).toEqual([
        401,
        'jwt_invalid_claims',
      ]);
      expect(await status(await signJwt())).toEqual([401, 'jwt_invalid_claims']);
    } finally {
      await strict.close();
    }
  });

  it('a JWT when no JWT secret is configured: 401', async () => {
    const keysOnly = await startAuthTestServer({ database: sqlite, jwt: null });
    try {
      const response = await fetch(`${keysOnly.url}/probe/operator`, { headers: bearer(await signJwt()) });
      expect(response.status).toBe(401);
    } finally {
      await keysOnly.close();
    }
  });

  it('a wrong API key: 401 invalid_credentials', async () => {
    expectError(await call('/probe/operator', { headers: { 'x-api-key': `${API_KEY}x` } }), 401, 'invalid_credentials');
    expectError(await call('/probe/operator', { headers: bearer('not-a-key-at-all') }), 401, 'invalid_credentials');
  });

  it('an unknown sat- token: 401 invalid_token', async () => {
    expectError(await chat('helper', bearer(`sat-${'0'.repeat(64)}`)), 401, 'invalid_token');
  });

  it('a revoked token: 401 token_revoked', async () => {
    const { token, token_id } = await issue();
    expect((await chat('helper', bearer(token))).status).toBe(200);
    await gw.tokens.revoke(token_id);
    expectError(await chat('helper', bearer(token)), 401, 'token_revoked');
  });

  it('an expired token: 401 token_expired', async () => {
    const { token } = await issue({ expires_in_seconds: 60 });
    expect((await chat('helper', bearer(token))).status).toBe(200);
    gw.clock.advance(61);
    expectError(await chat('helper', bearer(token)), 401, 'token_expired');
    expect((await gw.tokens.list()).find((row) => row.token_suffix === token.slice(-4))?.status).toBe('expired');
  });

  it('a used single-use token: 401 token_used', async () => {
    const { token } = await issue({ single_use: true });
    expect((await chat('helper', bearer(token))).status).toBe(200);
    expectError(await chat('helper', bearer(token)), 401, 'token_used');
  });

  it('a deleted token: 401 invalid_token', async () => {
    const { token, token_id } = await issue();
    await gw.tokens.delete(token_id);
    expectError(await chat('helper', bearer(token)), 401, 'invalid_token');
  });

  it("a token without the route's scope: 403 insufficient_scope, and the token is not spent", async () => {
    const { token, token_id } = await issue({ scopes: ['chat', 'dream'], single_use: true });
    expectError(await call('/probe/tools', { headers: bearer(token) }), 403, 'insufficient_scope');
    const other = await issue({ scopes: ['dream'] });
    expectError(await chat('helper', bearer(other.token)), 403, 'insufficient_scope');
    expect((await gw.tokens.get(token_id)).status).toBe('active');
    expect((await chat('helper', bearer(token))).status).toBe(200);
  });

  it('a token used for another agent: 403 wrong_agent, and the token is not spent', async () => {
    const { token, token_id } = await issue({ single_use: true });
    const answer = await chat('other', bearer(token));
    expectError(answer, 403, 'wrong_agent');
    expect(answer.body.error?.message).toContain('"helper"');
    expect((await gw.tokens.get(token_id)).status).toBe('active');
  });

  it('a token on an operator route: 403 operator_only', async () => {
    const { token } = await issue({ scopes: ['chat', 'a2a', 'tools'] });
    expectError(await call('/probe/operator', { headers: bearer(token) }), 403, 'operator_only');
    expectError(await call('/gateway/tokens', { headers: bearer(token) }), 403, 'operator_only');
    expectError(
      await call('/gateway/tokens', { method: 'POST', headers: bearer(token), body: { agent_name: 'helper' } }),
      403,
      'operator_only',
    );
  });

  it('operators reach every scoped route for every agent', async () => {
    expect((await chat('other', { 'x-api-key': API_KEY })).status).toBe(200);
    expect((await call('/probe/tools', { headers: bearer(await signJwt()) })).status).toBe(200);
  });
});

describe('?access_token= for browser streams', () => {
  it('is accepted on a GET route that declares queryToken', async () => {
    const { token } = await issue();
    const answer = await call(`/probe/agents/helper/stream?access_token=${token}`);
    expect(answer.status).toBe(200);
    expect(answer.body.principal).toMatchObject({ kind: 'access_token', agentName: 'helper' });
    expect((await call(`/probe/agents/helper/stream?access_token=${API_KEY}`)).body.principal).toMatchObject({
      method: 'api_key',
    });
  });

  it('still binds the token to its agent', async () => {
    const { token } = await issue();
    expectError(await call(`/probe/agents/other/stream?access_token=${token}`), 403, 'wrong_agent');
  });

  it('is ignored on POST, on GET routes without queryToken and on operator routes', async () => {
    const { token } = await issue();
    expectError(
      await call(`/probe/agents/helper/stream?access_token=${token}`, { method: 'POST', body: {} }),
      401,
      'missing_credentials',
    );
    expectError(await call(`/probe/agents/helper/events?access_token=${token}`), 401, 'missing_credentials');
    expectError(await call(`/probe/operator?access_token=${API_KEY}`), 401, 'missing_credentials');
  });

  it('is never written to the log', async () => {
    const { token } = await issue();
    await call(`/probe/agents/helper/stream?access_token=${token}`);
    expect(gw.logs.text).toContain('access_token=[redacted]');
    expect(gw.logs.text).not.toContain(token);
  });
});

describe('logs', () => {
  it('never contain an API key, a JWT, an access token or an Authorization header', async () => {
    const jwt = await signJwt();
    const { token } = await issue();
    await call('/probe/operator', { headers: { 'x-api-key': API_KEY } });
    await call('/probe/operator', { headers: bearer(jwt) });
    await call('/probe/operator', { headers: { cookie: `service_auth=${API_KEY}` } });
    await chat('helper', bearer(token));
    await call('/probe/operator', { headers: bearer(`${API_KEY}-wrong`) });
    const text = gw.logs.text;
    expect(text).toContain('"url":"/probe/operator"');
    for (const secret of [API_KEY, JWT_SECRET, jwt, token, token.slice(4)]) expect(text).not.toContain(secret);
    expect(text.toLowerCase()).not.toContain('authorization');
    expect(text.toLowerCase()).not.toContain('x-api-key');
  });
});
