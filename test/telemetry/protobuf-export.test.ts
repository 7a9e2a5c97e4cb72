import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';

/** What arrived at /v1/traces: content type and body bytes (protobuf is checked by its content, not decoded). */
interface Export {
  contentType: string | undefined;
  body: Buffer;
}

describe('telemetry on with the defaults: OTLP protobuf, no context manager', () => {
  let collector: Server;
  const exports: Export[] = [];
  let app: TestApp;
  beforeAll(async () => {
    collector = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.url === '/v1/traces')
          exports.push({ contentType: request.headers['content-type'], body: Buffer.concat(chunks) });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    app = await startTestApp(`
auth:
  api_keys: ["\${TEST_API_KEY}"]
agents: []
telemetry:
  enabled: true
  endpoint: "${endpoint}"
  service_name: proto-gateway
`);
  });
  afterAll(async () => {
    await app?.stop();
    collector?.closeAllConnections();
    await new Promise((resolve) => collector?.close(resolve));
  });

  it('sends the server span of a request as application/x-protobuf', async () => {
    const response = await fetch(`${app.url}/api/v1/admin/agents`, {
      headers: { authorization: `Bearer ${TEST_API_KEY}` },
    });
    expect(response.status).toBe(200);
    await vi.waitFor(
      async () => {
        await app.telemetry.flush();
        expect(exports.length).toBeGreaterThan(0);
      },
      { timeout: 10_000, interval: 50 },
    );
    const [first] = exports;
    expect(first.contentType).toBe('application/x-protobuf');
    // Protobuf strings are stored as their UTF-8 bytes: the span's name and the service name are in the body.
    expect(first.body.includes(Buffer.from('GET /api/v1/admin/agents'))).toBe(true);
    expect(first.body.includes(Buffer.from('proto-gateway'))).toBe(true);
    // Not JSON.
    expect(first.body[0]).not.toBe('{'.charCodeAt(0));
  });

  // The gateway passes trace context explicitly: a registered context manager (AsyncLocalStorage on Node 20)
  // would run a promise hook for every promise of the process. The API's no-op manager keeps no context:
  // `with` does not make its context the active one, before or after an await.
  it('registers no context manager (no AsyncLocalStorage, no promise hook)', async () => {
    const key = createContextKey('probe');
    const seen = await context.with(ROOT_CONTEXT.setValue(key, 'set'), async () => {
      const inside = context.active().getValue(key);
      await Promise.resolve();
      return [inside, context.active().getValue(key)];
    });
    expect(app.telemetry.enabled).toBe(true);
    expect(seen).toEqual([undefined, undefined]);
    expect(context.active()).toBe(ROOT_CONTEXT);
  });
});
