import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddressPolicy } from '../../src/tools/http/address-policy.js';
import { createToolRegistry, type ToolRegistry } from '../../src/tools/index.js';
import { startLoopbackServer, type LoopbackServer } from './support/loopback-server.js';
import { toolsConfig } from './support/tools-config.js';

/**
 * http_request and HTTP tools never reach this machine or a private network by accident, however the
 * address is spelled (issue 22). The server listens on every address, so each spelling below would
 * reach it if the guard let it through.
 */
describe('HTTP tools and non-public addresses', () => {
  let server: LoopbackServer;
  let open: ToolRegistry;
  let allowed: ToolRegistry;
  const spellings = (port: number) => [
    `http://127.1:${port}/`,
    `http://0x7f000001:${port}/`,
    `http://2130706433:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    `http://localhost:${port}/`,
    `http://0.0.0.0:${port}/`,
    `http://[::]:${port}/`,
    `http://[::1]:${port}/`,
  ];

  beforeAll(async () => {
    server = await startLoopbackServer({ host: '::' });
    server.route('/', (_request, response) =>
      response.writeHead(200, { 'content-type': 'text/plain' }).end('internal secret'),
    );
    open = await createToolRegistry({
      config: toolsConfig([
        { builtin: 'http_request', allowed_hosts: ['*'] },
        { name: 'internal', url: `http://localhost:${server.port}/` },
      ]),
    });
    allowed = await createToolRegistry({
      config: toolsConfig([
        {
          builtin: 'http_request',
          allowed_hosts: ['*'],
          allow_private: ['127.0.0.0/8', '::1/128', '0.0.0.0/32', '::/128'],
        },
        { name: 'internal', url: `http://localhost:${server.port}/`, allow_private: ['127.0.0.1/32', '::1'] },
      ]),
    });
  });
  afterAll(async () => {
    await open.close();
    await allowed.close();
    await server.close();
  });

  it('refuses every spelling of this machine with a clear tool error, even with allowed_hosts ["*"]', async () => {
    for (const url of spellings(server.port)) {
      await expect(open.execute('http_request', { url }), url).rejects.toMatchObject({
        name: 'ToolExecutionError',
        code: 'invalid_arguments',
        message: expect.stringMatching(
          /^http_request refused: host ".+" refused: \S+ is an? (loopback|unspecified) address; list it .* allow_private/,
        ),
      });
    }
    expect(server.requests).toHaveLength(0);
  });

  it('refuses IPv4-compatible IPv6 (::/96) before connecting, whatever the address it embeds', async () => {
    for (const url of [`http://[::7f00:1]:${server.port}/`, `http://[::127.0.0.1]:${server.port}/`]) {
      await expect(open.execute('http_request', { url }), url).rejects.toMatchObject({
        code: 'invalid_arguments',
        message: expect.stringMatching(/refused: ::7f00:1 is an? \w+ address; list it .* allow_private/),
      });
    }
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a name that resolves to loopback, in an HTTP tool from config too', async () => {
    await expect(open.execute('http_request', { url: `http://localhost:${server.port}/` })).rejects.toMatchObject({
      message: expect.stringContaining('host "localhost" refused'),
    });
    await expect(open.execute('internal', {})).rejects.toMatchObject({
      code: 'failed',
      message: expect.stringContaining('Tool "internal" refused: host "localhost" refused'),
    });
    expect(server.requests).toHaveLength(0);
  });

  it('reaches those addresses when allow_private names them', async () => {
    for (const url of spellings(server.port)) {
      const answer = JSON.parse(await allowed.execute('http_request', { url })) as { status: number; body: string };
      expect(answer, url).toMatchObject({ status: 200, body: 'internal secret' });
    }
    expect(await allowed.execute('internal', {})).toBe('internal secret');
  });

  it('judges addresses by class: public unicast passes, private, link-local and embedded forms do not', () => {
    const policy = createAddressPolicy(['10.1.0.0/16']);
    for (const address of ['8.8.8.8', '2606:4700::1111']) expect(policy.refusal(address), address).toBeUndefined();
    expect(policy.refusal('10.1.2.3')).toBeUndefined();
    for (const address of [
      '10.2.0.1',
      '192.168.1.1',
      '172.16.0.1',
      '169.254.169.254',
      '100.64.0.1',
      'fe80::1',
      'fd00::1',
      '224.0.0.1',
      '255.255.255.255',
      '::ffff:10.2.0.1',
      '64:ff9b::a02:1',
      '2002:a02:1::1',
      // IPv4-compatible (::/96, deprecated), SIIT (::ffff:0:0/96) and NAT64's local-use prefix: embedded IPv4.
      '::7f00:1',
      '::127.0.0.1',
      '::a02:1',
      '::808:808',
      '::ffff:0:7f00:1',
      '64:ff9b:1::7f00:1',
    ]) {
      expect(policy.refusal(address), address).toMatch(/ is an? \w+ address/);
    }
  });
});
