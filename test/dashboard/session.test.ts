import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { BASE_YAML, startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp(BASE_YAML);
});
afterAll(() => app.stop());

function signIn(body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${app.url}/api/v1/ui/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.url, ...headers },
    body: JSON.stringify(body),
  });
}

function cookieOf(response: Response): string {
  return response.headers.get('set-cookie') ?? '';
}

describe('dashboard sign-in', () => {
  it('sets an HttpOnly SameSite=Strict service_auth cookie for an API key, which then authenticates reads', async () => {
    const response = await signIn({ credential: TEST_API_KEY });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { method: string; subject: string };
    expect(body.method).toBe('api_key');
    expect(body.subject).toMatch(/^key_/);
    const cookie = cookieOf(response);
    expect(cookie).toBe(`service_auth=${TEST_API_KEY}; Path=/; HttpOnly; SameSite=Strict`);
    const session = await fetch(`${app.url}/api/v1/ui/session`, { headers: { cookie: cookie.split(';')[0] } });
    expect(session.status).toBe(200);
    expect((await fetch(`${app.url}/api/v1/ui/session`)).status).toBe(401);
  });

  it('refuses an access token, a wrong key and a sign-in from another origin', async () => {
    const created = await fetch(`${app.url}/gateway/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent_name: 'helper' }),
    });
    const { token } = (await created.json()) as { token: string };
    const withToken = await signIn({ credential: token });
    expect(withToken.status).toBe(403);
    expect(await withToken.json()).toMatchObject({ error: { code: 'operator_only' } });
    expect(cookieOf(withToken)).toBe('');

    const wrong = await signIn({ credential: 'not-a-key' });
    expect(wrong.status).toBe(401);
    expect(cookieOf(wrong)).toBe('');

    const elsewhere = await signIn({ credential: TEST_API_KEY }, { origin: 'https://evil.example' });
    expect(elsewhere.status).toBe(403);
    expect(await elsewhere.json()).toMatchObject({ error: { code: 'cross_origin_request' } });
  });

  it('sign-out clears the cookie', async () => {
    const response = await fetch(`${app.url}/api/v1/ui/session`, { method: 'DELETE' });
    expect(response.status).toBe(200);
    expect(cookieOf(response)).toContain('service_auth=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
  });

  it('a login code from `agent-gateway ui` signs in once', async () => {
    const issued = await fetch(`${app.url}/api/v1/ui/login-codes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}` },
    });
    expect(issued.status).toBe(201);
    const { code, login_url } = (await issued.json()) as { code: string; login_url: string };
    expect(login_url).toBe(`${app.url}/ui/login?code=${code}`);
    const first = await signIn({ code });
    expect(first.status).toBe(200);
    expect(cookieOf(first)).toContain(`service_auth=${TEST_API_KEY};`);
    const again = await signIn({ code });
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ error: { code: 'invalid_login_code' } });
  });

  it("builds the login link from the listen address, never from the request's Host (public_url unset)", async () => {
    // An operator's client, pointed at the gateway through a name an attacker controls (or a forged Host), must not
    // be handed a link that sends the code elsewhere. fetch() cannot set Host: plain http can.
    const { port } = new URL(app.url);
    const body = await new Promise<string>((resolve, reject) => {
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/v1/ui/login-codes',
          headers: { host: 'attacker.example', authorization: `Bearer ${TEST_API_KEY}` },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve(text));
        },
      );
      request.on('error', reject).end();
    });
    const { code, login_url } = JSON.parse(body) as { code: string; login_url: string };
    expect(login_url).toBe(`${app.url}/ui/login?code=${code}`);
  });

  it('`agent-gateway ui` prints a link whose code signs the browser in', async () => {
    const result = await runCli(['ui', '--host', app.url, '--token', TEST_API_KEY]);
    expect(result.code).toBe(0);
    const link = /(http:\/\/\S+\/ui\/login\?code=(\S+))/.exec(result.stdout);
    expect(link?.[1].startsWith(`${app.url}/ui/login?code=`)).toBe(true);
    const signedIn = await signIn({ code: link?.[2] });
    expect(signedIn.status).toBe(200);
    expect(cookieOf(signedIn)).toContain(`service_auth=${TEST_API_KEY};`);
  }, 90_000); // the CLI runs from source under tsx: slow to start on a busy machine

  it('an access token cannot issue a login code', async () => {
    const created = await fetch(`${app.url}/gateway/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent_name: 'helper' }),
    });
    const { token } = (await created.json()) as { token: string };
    const issued = await fetch(`${app.url}/api/v1/ui/login-codes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(issued.status).toBe(403);
  });
});

describe('GATEWAY_UI=false', () => {
  it('mounts neither /ui nor the session routes', async () => {
    const off = await startTestApp(`${BASE_YAML}\nui: { enabled: false }\n`);
    try {
      expect((await fetch(`${off.url}/ui/`)).status).toBe(404);
      expect((await fetch(`${off.url}/api/v1/ui/session`, { method: 'DELETE' })).status).toBe(404);
    } finally {
      await off.stop();
    }
  });
});
