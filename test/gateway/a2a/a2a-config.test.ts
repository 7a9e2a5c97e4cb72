import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../../src/config/index.js';

const yaml = (...lines: string[]) => `${lines.join('\n')}\n`;
const BASE = ['providers:', '  up: { type: openai-compatible, base_url: "http://127.0.0.1:9/v1" }'];
const agentWithDelegate = ['agents:', '  - name: boss', '    model: up/m', '    tools: [delegate_to_agent]'];

const parseError = (text: string) => {
  try {
    parseConfigText(text, 'gw.yaml', {});
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a config error');
};

describe('a2a config section', () => {
  it('defaults to no remotes and a two-minute timeout', () => {
    expect(parseConfigText(yaml(...BASE), 'gw.yaml', {}).a2a).toEqual({
      remotes: [],
      push_notifications: {
        allow_private: [],
        max_attempts: 8,
        backoff_seconds: 2,
        max_backoff_seconds: 600,
        timeout_ms: 10_000,
        lease_seconds: 30,
        poll_interval_ms: 1000,
      },
      timeout_ms: 120_000,
      card_ttl_ms: 300_000,
    });
  });

  it('reads remotes with ${ENV} tokens, and lets agents use delegate_to_agent', () => {
    const text = yaml(
      ...BASE,
      ...agentWithDelegate,
      'a2a:',
      '  remotes:',
      '    - name: research',
      '      url: https://peer.example.com/a2a/helper',
      '      token: ${PEER_TOKEN}',
      '  timeout_ms: 5000',
    );
    const config = parseConfigText(text, 'gw.yaml', { PEER_TOKEN: 'sat-abc' });
    expect(config.a2a).toEqual({
      remotes: [{ name: 'research', url: 'https://peer.example.com/a2a/helper', token: 'sat-abc', description: '' }],
      push_notifications: expect.objectContaining({ allow_private: [] }),
      timeout_ms: 5000,
      card_ttl_ms: 300_000,
    });
  });

  it('reads push notification settings and refuses an allow_private entry that is not an address or range', () => {
    const text = yaml(...BASE, 'a2a:', '  push_notifications:', '    allow_private: ["127.0.0.1", "10.0.0.0/8"]');
    expect(parseConfigText(text, 'gw.yaml', {}).a2a.push_notifications.allow_private).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
    ]);
    expect(parseError(yaml(...BASE, 'a2a:', '  push_notifications:', '    allow_private: ["localhost"]'))).toMatch(
      /gw\.yaml:\d+: .*IP address or a CIDR range/,
    );
  });

  it('refuses delegate_to_agent without remotes, duplicate remote names and non-http URLs', () => {
    expect(parseError(yaml(...BASE, ...agentWithDelegate))).toMatch(/gw\.yaml:6: .*delegate_to_agent.*a2a\.remotes/);
    const remote = (name: string, url = 'http://peer/a2a/x') => [`    - name: ${name}`, `      url: ${url}`];
    expect(parseError(yaml(...BASE, 'a2a:', '  remotes:', ...remote('x'), ...remote('x')))).toMatch(
      /duplicate remote name "x"/,
    );
    expect(parseError(yaml(...BASE, 'a2a:', '  remotes:', ...remote('x', 'ftp://peer/x')))).toMatch(
      /url must be an http\(s\) URL/,
    );
  });

  it('reads a2a.default_agent, which must name an agent published over A2A', () => {
    const agents = ['agents:', '  - { name: front, model: up/m }', '  - { name: inner, model: up/m, a2a: false }'];
    const withDefault = (name: string) => yaml(...BASE, ...agents, 'a2a:', `  default_agent: ${name}`);
    expect(parseConfigText(withDefault('front'), 'gw.yaml', {}).a2a.default_agent).toBe('front');
    expect(parseError(withDefault('nobody'))).toMatch(/gw\.yaml:\d+: .*unknown agent "nobody"/);
    expect(parseError(withDefault('inner'))).toMatch(/agent "inner" is not published over A2A \(a2a: false\)/);
  });
});
