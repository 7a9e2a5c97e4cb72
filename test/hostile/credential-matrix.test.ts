/**
 * Hostile suite, part (b): a credential matrix over every operation of /openapi.json. The expected answer
 * comes from docs/api.md's "Auth:" line for that route (the reference users read), so the matrix checks
 * the running server against the documentation: 401 with no or bad credentials (missing, wrong key,
 * malformed, expired, wrongly signed or unsigned JWTs, a revoked or expired access token), 403 for an
 * access token on an operator route, without the route's scope, or bound to another agent; and the
 * right credentials get through (neither 401 nor 403), so a route refusing everyone cannot pass.
 */
import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY, TEST_JWT_SECRET } from '../support/app.js';
import { startHostileApp, type HostileApp } from './hostile-app.js';
import { problemWith, send, type Answer } from './send.js';

type Access =
  | { kind: 'public' }
  | { kind: 'operator' }
  | { kind: 'access_token' }
  | { kind: 'scope'; scope: string; queryToken: boolean };

/** Each route's access rule as docs/api.md states it. */
function documentedAccess(): Map<string, Access> {
  const text = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const rules = new Map<string, Access>();
  for (const section of text.split(/^## /m).slice(1)) {
    const heading = /^(GET|POST|PUT|PATCH|DELETE) (\S+)/.exec(section);
    const auth = /^Auth: (.+)$/m.exec(section)?.[1];
    if (!heading || !auth) continue;
    const scope = /access token with the `([^`]+)` scope/.exec(auth)?.[1];
    const access: Access =
      auth === 'public'
        ? { kind: 'public' }
        : auth.startsWith('an access token (any scope)')
          ? { kind: 'access_token' }
          : scope
            ? { kind: 'scope', scope, queryToken: auth.includes('?access_token=') }
            : { kind: 'operator' };
    rules.set(`${heading[1]} ${heading[2]}`, access);
  }
  return rules;
}

const secret = new TextEncoder().encode(TEST_JWT_SECRET);
const now = () => Math.floor(Date.now() / 1000);
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Minimal requests that name the agent `helper` wherever a route reads an agent from its input. */
function requestFor(method: string, path: string): { path: string; body?: string; headers: Record<string, string> } {
  const json = { 'content-type': 'application/json' };
  const concrete = path
    .replace('{name}', path.startsWith('/webhooks') ? 'shop' : 'helper')
    .replace(/\{[^}]+\}/g, 'helper');
  if (path === '/v1/chat/completions')
    return {
      path: concrete,
      headers: json,
      body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content: 'hi' }] }),
    };
  if (path === '/agui/runs')
    return { path: concrete, headers: json, body: JSON.stringify({ agent_name: 'helper', message: 'hi' }) };
  if (path === '/agui/agents/{name}')
    return {
      path: concrete,
      headers: json,
      body: JSON.stringify({ threadId: 't1', runId: 'r1', messages: [{ id: 'm1', role: 'user', content: 'hi' }] }),
    };
  if (path === '/a2a/{name}')
    return {
      path: concrete,
      headers: json,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'task-none' } }),
    };
  // A tools/call of helper's tool; without the Accept header MCP requires, the SDK answers 406 and starts no run.
  if (path === '/mcp')
    return {
      path: concrete,
      headers: json,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'helper', arguments: { message: 'hi' } },
      }),
    };
  if (path === '/webhooks/{name}')
    return { path: concrete, headers: json, body: JSON.stringify({ type: 'shop.order', id: 'o1' }) };
  return method === 'get' || method === 'delete'
    ? { path: concrete, headers: {} }
    : { path: concrete, headers: json, body: '{}' };
}

/** Routes where the request names the agent it reaches (path, model or agent_name): another agent's token is refused there. */
const NAMES_AN_AGENT = new Set([
  'POST /v1/chat/completions',
  'GET /v1/models/{model}',
  'POST /agui/runs',
  'POST /agui/agents/{name}',
  'POST /a2a/{name}',
  'POST /mcp',
]);

describe('credential matrix over every route, against docs/api.md (issue 22 part 9)', () => {
  let hostile: HostileApp;
  let access: Map<string, Access>;
  let operations: { method: string; path: string }[];
  const credentials: Record<string, Record<string, string>> = {};
  let tokens: Record<string, string>;
  let cases = 0;
  const started = Date.now();

  beforeAll(async () => {
    hostile = await startHostileApp();
    access = documentedAccess();
    operations = Object.entries(hostile.document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({ method, path })),
    );
    const validJwt = await new SignJWT({ sub: 'ops' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(now() + 600)
      .sign(secret);
    const expiredJwt = await new SignJWT({ sub: 'ops' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(now() - 60)
      .sign(secret);
    const wrongSecretJwt = await new SignJWT({ sub: 'ops' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(now() + 600)
      .sign(new TextEncoder().encode('not-the-secret-0123456789abcdef'));
    const noExpJwt = await new SignJWT({ sub: 'ops' }).setProtectedHeader({ alg: 'HS256' }).sign(secret);
    const hs512Jwt = await new SignJWT({ sub: 'ops' })
      .setProtectedHeader({ alg: 'HS512' })
      .setExpirationTime(now() + 600)
      .sign(new TextEncoder().encode(TEST_JWT_SECRET.repeat(2)));
    const [, payload] = validJwt.split('.');
    const all = ['chat', 'a2a', 'tools', 'mcp'];
    const revoked = await hostile.createToken('helper', all);
    await fetch(`${hostile.url}/gateway/tokens/${revoked.token_id}/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}` },
    });
    const expiring = await hostile.createToken('helper', all, 1);
    tokens = {
      helperAll: (await hostile.createToken('helper', all)).token,
      otherAll: (await hostile.createToken('other', all)).token,
      helperChat: (await hostile.createToken('helper', ['chat'])).token,
      helperA2a: (await hostile.createToken('helper', ['a2a'])).token,
      helperTools: (await hostile.createToken('helper', ['tools'])).token,
      helperMcp: (await hostile.createToken('helper', ['mcp'])).token,
      helperNone: (await hostile.createToken('helper', ['dream'])).token,
    };
    Object.assign(credentials, {
      'no credentials': {},
      'wrong API key (X-API-Key)': { 'x-api-key': 'wrong-key-0123456789' },
      'wrong API key (Bearer)': { authorization: 'Bearer wrong-key-0123456789' },
      'empty Bearer': { authorization: 'Bearer ' },
      'Basic scheme with the right key': {
        authorization: `Basic ${Buffer.from(`x:${TEST_API_KEY}`).toString('base64')}`,
      },
      'the API key with a trailing byte': { authorization: `Bearer ${TEST_API_KEY}x` },
      'malformed JWT': { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.not-json.sig' },
      'JWT signed with another secret': { authorization: `Bearer ${wrongSecretJwt}` },
      'expired JWT': { authorization: `Bearer ${expiredJwt}` },
      'JWT without exp': { authorization: `Bearer ${noExpJwt}` },
      'unsigned JWT (alg none)': { authorization: `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${payload}.` },
      'JWT with the signature cut': { authorization: `Bearer ${validJwt.slice(0, validJwt.lastIndexOf('.') + 1)}` },
      'JWT with a forged payload': {
        authorization: `Bearer ${validJwt.split('.')[0]}.${b64({ sub: 'root', exp: now() + 9_999 })}.${validJwt.split('.')[2]}`,
      },
      'HS512 JWT': { authorization: `Bearer ${hs512Jwt}` },
      'revoked access token': { authorization: `Bearer ${revoked.token}` },
      'expired access token': { authorization: `Bearer ${expiring.token}` },
      'made-up access token': { authorization: 'Bearer sat-0000000000000000000000000000000000000000' },
    });
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // lets the 1-second token expire
    credentials['valid JWT'] = { authorization: `Bearer ${validJwt}` };
  }, 60_000);
  afterAll(async () => {
    console.info(
      `[hostile] credential matrix: ${cases} requests over ${operations.length} operations in ${((Date.now() - started) / 1000).toFixed(1)}s`,
    );
    await hostile.stop();
  });

  const call = async (method: string, path: string, headers: Record<string, string>, query = ''): Promise<Answer> => {
    cases += 1;
    const request = requestFor(method, path);
    return send(hostile.url, {
      method: method.toUpperCase(),
      path: request.path,
      query,
      headers: { ...request.headers, ...headers },
      ...(request.body === undefined ? {} : { body: request.body }),
    });
  };
  const codeOf = (answer: Answer) =>
    /"code":"([^"]+)"/.exec(answer.text)?.[1] ?? String(/"code":(-?\d+)/.exec(answer.text)?.[1]);

  it('every operation in /openapi.json has an Auth line in docs/api.md', () => {
    const undocumented = operations
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`)
      .filter((key) => !access.has(key));
    expect(undocumented).toEqual([]);
  });

  it('bad or missing credentials: 401 on every protected route; public routes answer as without credentials', async () => {
    const wrong: string[] = [];
    const BAD = Object.keys(credentials).filter((name) => name !== 'valid JWT');
    for (const { method, path } of operations) {
      const key = `${method.toUpperCase()} ${path}`;
      const rule = access.get(key)!;
      const anonymous = await call(method, path, {});
      for (const name of BAD) {
        const answer = name === 'no credentials' ? anonymous : await call(method, path, credentials[name]);
        const problem = problemWith(answer, { jsonRpc: path === '/a2a/{name}' || path === '/mcp' });
        if (problem) wrong.push(`${key} with ${name}: ${problem}`);
        if (rule.kind === 'public') {
          if (answer.status !== anonymous.status)
            wrong.push(
              `${key} is public, yet ${name} changes its answer: ${anonymous.status} → ${answer.status} ${answer.text.slice(0, 120)}`,
            );
        } else if (answer.status !== 401) {
          wrong.push(`${key} with ${name}: expected 401, got ${answer.status} ${answer.text.slice(0, 160)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('operator credentials (API key, X-API-Key, JWT) get through every protected route; public ones answer as without', async () => {
    const wrong: string[] = [];
    const operator = {
      'API key as Bearer': { authorization: `Bearer ${TEST_API_KEY}` },
      'X-API-Key': { 'x-api-key': TEST_API_KEY },
      'valid JWT': credentials['valid JWT'],
    };
    for (const { method, path } of operations) {
      const key = `${method.toUpperCase()} ${path}`;
      // Webhooks verify their signature, not credentials: an operator key there changes nothing.
      const anonymous = access.get(key)!.kind === 'public' ? await call(method, path, {}) : undefined;
      for (const [name, headers] of Object.entries(operator)) {
        const answer = await call(method, path, headers);
        if (anonymous) {
          if (answer.status !== anonymous.status)
            wrong.push(`${key} is public, yet ${name} changes its answer: ${anonymous.status} → ${answer.status}`);
        } else if (access.get(key)!.kind === 'access_token') {
          // A route about the presented token itself: operators have no token to ask about.
          if (answer.status !== 403 || codeOf(answer) !== 'access_token_only')
            wrong.push(`${key} with ${name}: expected 403 access_token_only, got ${answer.status}`);
        } else if (answer.status === 401 || answer.status === 403 || answer.status >= 500)
          wrong.push(`${key} with ${name}: ${answer.status} ${answer.text.slice(0, 160)}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('access tokens: 403 on operator routes, without the scope and for another agent; through with the scope on their own agent', async () => {
    const wrong: string[] = [];
    const scopeToken: Record<string, string> = {
      chat: tokens.helperChat,
      a2a: tokens.helperA2a,
      tools: tokens.helperTools,
      mcp: tokens.helperMcp,
    };
    const expect403 = (key: string, name: string, answer: Answer, codes: string[]) => {
      if (answer.status !== 403 || !codes.includes(codeOf(answer)))
        wrong.push(
          `${key} with ${name}: expected 403 ${codes.join('/')}, got ${answer.status} ${answer.text.slice(0, 160)}`,
        );
    };
    const expectThrough = (key: string, name: string, answer: Answer) => {
      if (answer.status === 401 || answer.status === 403 || answer.status >= 500)
        wrong.push(`${key} with ${name}: expected to get through, got ${answer.status} ${answer.text.slice(0, 160)}`);
    };
    for (const { method, path } of operations) {
      const key = `${method.toUpperCase()} ${path}`;
      const rule = access.get(key)!;
      if (rule.kind === 'public') continue;
      const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
      if (rule.kind === 'access_token') {
        for (const [name, token] of Object.entries(tokens))
          expectThrough(key, `access token ${name}`, await call(method, path, bearer(token)));
        continue;
      }
      if (rule.kind === 'operator') {
        for (const [name, token] of Object.entries(tokens))
          expect403(key, `access token ${name}`, await call(method, path, bearer(token)), ['operator_only']);
        continue;
      }
      const own = scopeToken[rule.scope];
      if (!own) {
        wrong.push(`${key}: docs/api.md names scope ${rule.scope}, which the matrix does not know`);
        continue;
      }
      expectThrough(key, `its own agent's ${rule.scope} token`, await call(method, path, bearer(own)));
      expectThrough(key, "its own agent's token with every scope", await call(method, path, bearer(tokens.helperAll)));
      for (const [scope, token] of Object.entries(scopeToken)) {
        if (scope !== rule.scope)
          expect403(key, `a token with only the ${scope} scope`, await call(method, path, bearer(token)), [
            'insufficient_scope',
          ]);
      }
      expect403(key, 'a token with no granting scope', await call(method, path, bearer(tokens.helperNone)), [
        'insufficient_scope',
      ]);
      if (NAMES_AN_AGENT.has(key))
        expect403(key, "another agent's token (every scope)", await call(method, path, bearer(tokens.otherAll)), [
          'wrong_agent',
        ]);
      if (rule.queryToken) {
        expectThrough(key, '?access_token= of its own agent', await call(method, path, {}, `access_token=${own}`));
        const refused = await call(method, path, {}, 'access_token=sat-0000000000000000000000000000000000000000');
        if (refused.status !== 401)
          wrong.push(`${key} with a made-up ?access_token=: expected 401, got ${refused.status}`);
      } else if (method === 'get') {
        // A token in the query string counts only where the docs say so.
        const ignored = await call(method, path, {}, `access_token=${own}`);
        if (ignored.status !== 401)
          wrong.push(`${key}: ?access_token= is not documented here, yet it answered ${ignored.status}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
