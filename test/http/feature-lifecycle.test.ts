import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerLifecycle } from '../../src/http/index.js';

/** Registers features a, b, c (c uses b, b uses a) that write what happens to `log`. */
function threeFeatures(failStartOf?: string) {
  const server = Fastify();
  const log: string[] = [];
  for (const name of ['a', 'b', 'c'])
    registerLifecycle(server, {
      async start() {
        if (name === failStartOf) throw new Error(`${name} could not start`);
        log.push(`start ${name}`);
      },
      async stop() {
        log.push(`stop ${name}`);
      },
      async close() {
        log.push(`close ${name}`);
      },
    });
  return { server, log };
}

describe('feature lifecycle', () => {
  it('starts features in registration order and closes them in reverse, after every stop began', async () => {
    const { server, log } = threeFeatures();
    await server.ready();
    expect(log).toEqual(['start a', 'start b', 'start c']);
    await server.close();
    expect(log.slice(3)).toEqual(['stop a', 'stop b', 'stop c', 'close c', 'close b', 'close a']);
  });

  it('closes a feature only once its stop ended, however long the stop takes', async () => {
    const server = Fastify();
    const log: string[] = [];
    let endStop!: () => void;
    registerLifecycle(server, { close: async () => void log.push('close store') });
    registerLifecycle(server, {
      stop: () => new Promise<void>((resolve) => (endStop = resolve)),
      close: async () => void log.push('close runs'),
    });
    await server.ready();
    const closed = server.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual([]);
    endStop();
    await closed;
    expect(log).toEqual(['close runs', 'close store']);
  });

  it('a start that fails leaves every feature to be stopped and closed by close()', async () => {
    const { server, log } = threeFeatures('b');
    await expect(server.ready()).rejects.toThrow('b could not start');
    await server.close();
    expect(log).toEqual(['start a', 'stop a', 'stop b', 'stop c', 'close c', 'close b', 'close a']);
  });
});
