import { once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../../support/app.js';
import { a2aYaml, startA2aGateway, type A2aGateway } from './a2a-harness.js';

const coordinatorYaml = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0, timeout_ms: 10000 }
agents:
  - name: coordinator
    model: upstream/coordinator-model
    tools: [delegate_to_agent]
a2a:
  remotes:
    - name: helper
      url: "\${PROXY_URL}/a2a/helper"
      token: "\${A_TOKEN}"
`;

/**
 * A proxy in front of gateway A that cuts every SendStreamingMessage response after its first SSE event
 * (as an idle timeout or a restarting replica would); everything else passes through whole.
 */
async function startCuttingProxy(): Promise<{ url: string; target: { url: string }; cut: string[]; server: Server }> {
  const target = { url: '' };
  const cut: string[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const method = body.length > 0 ? (JSON.parse(body.toString()) as { method?: string }).method : undefined;
      const upstream = httpRequest(
        `${target.url}${incoming.url}`,
        { method: incoming.method, headers: { ...incoming.headers, host: new URL(target.url).host } },
        (response) => {
          outgoing.writeHead(response.statusCode ?? 502, response.headers);
          if (method !== 'SendStreamingMessage') return void response.pipe(outgoing);
          response.on('data', (chunk: Buffer) => {
            outgoing.write(chunk);
            if (chunk.toString().includes('\n\n')) {
              cut.push(method);
              response.destroy();
              outgoing.end();
            }
          });
        },
      );
      upstream.end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, target, cut, server };
}

describe('delegation whose remote stream stops early', () => {
  let a: A2aGateway;
  let b: A2aGateway;
  let proxy: Awaited<ReturnType<typeof startCuttingProxy>>;
  beforeAll(async () => {
    proxy = await startCuttingProxy();
    // A's card names the proxy as its endpoint, so every A2A call of B goes through it.
    a = await startA2aGateway({ yaml: `${a2aYaml()}\nserver:\n  public_url: ${proxy.url}\n` });
    proxy.target.url = a.app.url;
    const token = await a.createToken('helper', ['a2a']);
    b = await startA2aGateway({ yaml: coordinatorYaml, env: { PROXY_URL: proxy.url, A_TOKEN: token.token } });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    proxy.server.close();
  });

  it('follows the task again with SubscribeToTask and brings the whole answer', async () => {
    a.upstream.enqueue({ kind: 'text', text: 'A slow but whole answer.', chunks: 4, chunkDelayMs: 150 });
    b.upstream.enqueue(
      {
        kind: 'tool_calls',
        calls: [{ name: 'delegate_to_agent', arguments: { agent: 'helper', task: 'Answer slowly' } }],
      },
      {
        kind: 'handler',
        fn: (request) => {
          const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
          return { kind: 'text', text: `Relayed: ${messages.at(-1)!.content}` };
        },
      },
    );
    const response = await fetch(`${b.app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'coordinator', messages: [{ role: 'user', content: 'Ask the helper' }] }),
    });
    const answer = ((await response.json()) as { choices: { message: { content: string } }[] }).choices[0].message
      .content;
    expect(proxy.cut).toEqual(['SendStreamingMessage']);
    expect(answer).toBe('Relayed: A slow but whole answer.');
  });
});
