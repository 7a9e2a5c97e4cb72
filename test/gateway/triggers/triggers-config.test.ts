import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../../src/config/index.js';
import { ConfigError } from '../../../src/errors.js';

/** Line n of the text is lines[n - 1]. */
const yaml = (...lines: string[]) => `${lines.join('\n')}\n`;
const BASE = [
  'providers:',
  '  up: { type: openai-compatible, base_url: "http://127.0.0.1:9/v1" }',
  'agents:',
  '  - { name: billing, model: up/m }',
];
const POLLER =
  '  - { name: tickets, interval_minutes: 0.5, http: { url: "https://api.example.com/t" }, id_field: id, handler: { agent: billing, prompt: "t {{id}}" } }';

function configError(text: string): string {
  try {
    parseConfigText(text, 'gw.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected a config error');
}

describe('pollers and listeners config', () => {
  it('fills the defaults', () => {
    const config = parseConfigText(
      yaml(
        ...BASE,
        'pollers:',
        POLLER,
        'listeners:',
        '  - { name: q, source: amqp, url: "amqp://localhost", queue: jobs }',
      ),
      'gw.yaml',
    );
    expect(config.pollers).toEqual([
      {
        name: 'tickets',
        interval_minutes: 0.5,
        http: { url: 'https://api.example.com/t', method: 'GET', headers: {}, timeout_seconds: 30 },
        id_field: 'id',
        handler: { agent: 'billing', prompt: 't {{id}}' },
      },
    ]);
    expect(config.listeners).toEqual([
      {
        name: 'q',
        source: 'amqp',
        url: 'amqp://localhost',
        queue: 'jobs',
        exchange_type: 'topic',
        binding_key: '#',
        prefetch: 16,
        event_field: 'type',
        handlers: [],
      },
    ]);
    expect(config.trigger_settings).toEqual({
      max_attempts: 5,
      backoff_seconds: 30,
      max_backoff_seconds: 3600,
      concurrency: 4,
      poll_interval_ms: 1000,
      lease_seconds: 60,
      source_backoff: { initial_seconds: 1, max_seconds: 300 },
    });
    expect(parseConfigText(yaml(...BASE), 'gw.yaml')).toMatchObject({ pollers: [], listeners: [] });
  });

  it('accepts every listener source', () => {
    const config = parseConfigText(
      yaml(
        ...BASE,
        'listeners:',
        '  - { name: r, source: redis, url: "redis://localhost:6379", pattern: "orders:*" }',
        '  - { name: n, source: nats, url: "nats://localhost:4222", subject: "orders.>", stream: ORDERS }',
        '  - { name: m, source: mqtt, url: "mqtt://localhost:1883", topic: "sensors/#" }',
        '  - { name: s, source: sse, url: "https://feed.example.com/events", headers: { authorization: "Bearer x" }, event_field: meta.kind }',
        '  - { name: x, source: redis-stream, url: "redis://localhost:6379", stream: orders }',
      ),
      'gw.yaml',
    );
    expect(config.listeners.map((listener) => listener.source)).toEqual([
      'redis',
      'nats',
      'mqtt',
      'sse',
      'redis-stream',
    ]);
    // Shared by default across replicas: the defaults name no group (the listener derives one from its name).
    expect(config.listeners[2]).toMatchObject({ session_expiry_seconds: 3600 });
    expect(config.listeners[2]).not.toHaveProperty('shared_group');
    expect(config.listeners[3]).toMatchObject({ idle_timeout_seconds: 60, lease_seconds: 30 });
    expect(config.listeners[4]).toMatchObject({ claim_idle_seconds: 60, batch: 16 });
  });

  it.each([
    [
      ['pollers:', POLLER.replace('0.5', '0.01')],
      'gw.yaml:6: pollers.0.interval_minutes: interval_minutes must be at least one second (0.0167)',
    ],
    [
      ['pollers:', POLLER.replace('agent: billing', 'agent: nobody')],
      'gw.yaml:6: pollers.0.handler.agent: unknown agent "nobody"',
    ],
    [
      ['pollers:', POLLER.replace('https://api', 'ftp://api')],
      'gw.yaml:6: pollers.0.http.url: url must be an http(s) URL',
    ],
    [['pollers:', POLLER, POLLER], 'gw.yaml:7: pollers.1.name: duplicate poller name "tickets"'],
    [
      ['listeners:', '  - { name: r, source: redis, url: "redis://localhost" }'],
      'gw.yaml:6: listeners.0.channel: give exactly one of "channel" or "pattern"',
    ],
    [
      ['listeners:', '  - { name: r, source: kafka, url: "kafka://localhost" }'],
      expect.stringMatching(/^gw\.yaml:6: listeners\.0\.source: /),
    ],
    [
      ['listeners:', '  - { name: q, source: amqp, url: "http://localhost", queue: jobs }'],
      'gw.yaml:6: listeners.0.url: url must be an amqp:// or amqps:// URL',
    ],
    [
      ['listeners:', '  - { name: q, source: amqp, url: "amqp://localhost", queue: jobs, qeue: x }'],
      'gw.yaml:6: unknown key "qeue" in listeners.0',
    ],
    [
      ['listeners:', '  - { name: m, source: mqtt, url: "mqtt://localhost", topic: t, shared_group: "a/b" }'],
      'gw.yaml:6: listeners.0.shared_group: shared_group may not contain /, + or #',
    ],
    [
      [
        'listeners:',
        '  - name: s',
        '    source: sse',
        '    url: "http://localhost/e"',
        '    handlers:',
        '      - { event: x, agent: nobody, prompt: hi }',
      ],
      'gw.yaml:10: listeners.0.handlers.0.agent: unknown agent "nobody"',
    ],
  ])('reports a bad entry with its line (%#)', (lines, message) => {
    expect(configError(yaml(...BASE, ...lines))).toEqual(message);
  });
});
