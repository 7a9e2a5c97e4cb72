import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_YAML, startTestApp, TEST_API_KEY, type TestApp } from '../../../support/app.js';

// Bodies that are not JSON-RPC requests, and requests the SDK fails on inside: a JSON-RPC error every
// time, never an HTTP 500 and never the text of an internal exception.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp(BASE_YAML);
});
afterAll(() => app.stop());

const INTERNAL_TEXT = /Cannot read|is not a function|call stack|TypeError|\.ts:\d+|node_modules/;

async function call(body: string, options: { contentType?: string; version?: '1.0' } = {}) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${TEST_API_KEY}`,
    'content-type': options.contentType ?? 'application/json',
  };
  if (options.version) headers['a2a-version'] = options.version;
  const response = await fetch(`${app.url}/a2a/helper`, { method: 'POST', headers, body });
  const text = await response.text();
  expect(response.status).not.toBe(500);
  expect(text).not.toMatch(INTERNAL_TEXT);
  // v0.3 streaming methods answer an early error as an SSE `error` event carrying the JSON-RPC envelope.
  const json = response.headers.get('content-type')?.startsWith('text/event-stream')
    ? text.slice(text.indexOf('data: ') + 'data: '.length)
    : text;
  return {
    status: response.status,
    body: JSON.parse(json) as { jsonrpc: string; id: unknown; error?: { code: number; message: string } },
  };
}

const invalid = (id: string | number | null, message: string) => ({
  status: 200,
  body: { jsonrpc: '2.0', id, error: { code: -32600, message: `Invalid Request: ${message}` } },
});

describe('the JSON-RPC envelope is checked before the SDK sees the body', () => {
  it('null sent as text/plain is 415 -32005 (JSON-RPC comes as application/json), not a 500 from inside the SDK', async () => {
    const answer = await call('null', { contentType: 'text/plain' });
    expect(answer.status).toBe(415);
    expect(answer.body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32005, message: 'Content-Type must be application/json' },
    });
  });

  it.each([
    ['null', 'the body must be a JSON-RPC request object'],
    ['5', 'the body must be a JSON-RPC request object'],
    ['"tasks/get"', 'the body must be a JSON-RPC request object'],
    ['true', 'the body must be a JSON-RPC request object'],
    ['[]', 'batch requests are not supported; send one request object'],
    [
      '[{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x"}}]',
      'batch requests are not supported; send one request object',
    ],
  ])('%s is -32600 Invalid Request, for v0.3 and 1.0 callers alike', async (body, message) => {
    expect(await call(body)).toEqual(invalid(null, message));
    expect(await call(body, { version: '1.0' })).toEqual(invalid(null, message));
  });

  it.each([
    ['{"jsonrpc":"2.0","id":3}', 3, 'method must be a non-empty string'],
    ['{"jsonrpc":"2.0","id":"a","method":""}', 'a', 'method must be a non-empty string'],
    ['{"id":3,"method":"tasks/get"}', 3, 'jsonrpc must be "2.0"'],
    ['{"jsonrpc":"1.0","id":3,"method":"tasks/get"}', 3, 'jsonrpc must be "2.0"'],
    ['{"jsonrpc":"2.0","id":{"n":1},"method":"tasks/get"}', null, 'id must be a string, a number or null'],
    ['{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":"x"}', 3, 'params must be an object or an array'],
  ])('%s is -32600 naming what is wrong, echoing a valid id', async (body, id, message) => {
    expect(await call(body)).toEqual(invalid(id, message));
  });

  it('message metadata nested 10,000 deep is refused by the depth limit (400 -32600), never "Maximum call stack size exceeded"', async () => {
    const metadata = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const body = `{"jsonrpc":"2.0","id":5,"method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"hi"}],"metadata":${metadata}}}}`;
    expect(await call(body)).toMatchObject({
      status: 400,
      body: { jsonrpc: '2.0', error: { code: -32600, message: 'The JSON body is nested more than 64 levels deep' } },
    });
  });

  it('a valid request still reaches the SDK', async () => {
    expect(await call('{"jsonrpc":"2.0","id":9,"method":"tasks/get","params":{"id":"no-such-task"}}')).toMatchObject({
      status: 200,
      body: { id: 9, error: { code: -32001 } },
    });
  });
});

describe('failures inside the SDK', () => {
  it.each([
    [
      'v0.3 tasks/get with an object id',
      '{"jsonrpc":"2.0","id":4,"method":"tasks/get","params":{"id":{"a":1}}}',
      undefined,
      'taskId.trim is not a function',
    ],
    [
      'v0.3 tasks/resubscribe with an object id (thrown before the stream starts; was HTTP 500)',
      '{"jsonrpc":"2.0","id":4,"method":"tasks/resubscribe","params":{"id":{"a":1}}}',
      undefined,
      'taskId.trim is not a function',
    ],
    [
      '1.0 SendStreamingMessage with a null part',
      '{"jsonrpc":"2.0","id":4,"method":"SendStreamingMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[null]}}}',
      '1.0' as const,
      "Cannot read properties of null (reading 'text')",
    ],
    [
      '1.0 SendMessage with a null part',
      '{"jsonrpc":"2.0","id":4,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[null]}}}',
      '1.0' as const,
      "Cannot read properties of null (reading 'text')",
    ],
  ])('%s: -32603 "Internal error", the real message only in the log', async (_name, body, version, internal) => {
    const before = app.logs.lines.length;
    expect(await call(body, { version })).toEqual({
      status: 200,
      body: { jsonrpc: '2.0', id: 4, error: { code: -32603, message: 'Internal error' } },
    });
    const logged = app.logs.lines
      .slice(before)
      .map((line) => JSON.parse(line) as { level: number; a2a_error?: string; err?: { message?: string } });
    expect(logged.some((line) => line.level === 50 && (line.a2a_error ?? line.err?.message)?.includes(internal))).toBe(
      true,
    );
  });
});
