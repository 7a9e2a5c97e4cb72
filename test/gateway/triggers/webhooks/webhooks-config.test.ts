import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../../../src/config/index.js';
import { ConfigError } from '../../../../src/errors.js';

/** Line n of the text is lines[n - 1]. */
const yaml = (...lines: string[]) => `${lines.join('\n')}\n`;
const BASE = [
  'providers:',
  '  up: { type: openai-compatible, base_url: "http://127.0.0.1:9/v1" }',
  'agents:',
  '  - { name: billing, model: up/m }',
  'webhooks:',
];

function configError(text: string): string {
  try {
    parseConfigText(text, 'gw.yaml', { STRIPE_SECRET: 'whsec_from_env' });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected a config error');
}

describe('webhooks config', () => {
  it('fills the defaults', () => {
    const config = parseConfigText(
      yaml(...BASE, '  - { name: stripe, verification: stripe, secret: "${STRIPE_SECRET}" }'),
      'gw.yaml',
      { STRIPE_SECRET: 'whsec_from_env' },
    );
    expect(config.webhooks).toEqual([
      { name: 'stripe', verification: 'stripe', secret: 'whsec_from_env', tolerance_seconds: 300, handlers: [] },
    ]);
    expect(config.webhook_settings).toEqual({
      path_prefix: '/webhooks',
      max_attempts: 5,
      backoff_seconds: 30,
      max_backoff_seconds: 3600,
      concurrency: 4,
      poll_interval_ms: 1000,
      lease_seconds: 60,
      rate_limit: { max: 1000, time_window_seconds: 60 },
    });
    expect(parseConfigText(yaml(...BASE.slice(0, 4)), 'gw.yaml').webhooks).toEqual([]);
  });

  it('takes a standard-webhooks secret with or without whsec_ (padding optional), and a timestamp_header for hmac-sha256', () => {
    const config = parseConfigText(
      yaml(
        ...BASE,
        '  - { name: sw, verification: standard-webhooks, secrets: [whsec_c2VjcmV0, "whsec_c2VjcmV0Mg==", whsec_c2VjcmV0Mg, plain-secret] }',
        '  - { name: hm, verification: hmac-sha256, secret: s, timestamp_header: X-Webhook-Timestamp }',
      ),
      'gw.yaml',
    );
    expect(config.webhooks.map((webhook) => webhook.verification)).toEqual(['standard-webhooks', 'hmac-sha256']);
    expect(config.webhooks[1]).toMatchObject({ timestamp_header: 'X-Webhook-Timestamp', tolerance_seconds: 300 });
  });

  it.each([
    [
      [
        '  - name: gh',
        '    verification: github',
        '    handlers:',
        '      - { event: gh.push, agent: nobody, prompt: hi }',
        '    secret: s',
      ],
      'gw.yaml:9: webhooks.0.handlers.0.agent: unknown agent "nobody"',
    ],
    [
      ['  - name: gh', '    verification: github'],
      'gw.yaml:6: webhooks.0.secret: give exactly one of "secret" or "secrets"',
    ],
    [
      ['  - name: gh', '    verification: github', '    secret: a', '    secrets: [b]'],
      'gw.yaml:8: webhooks.0.secret: give exactly one of "secret" or "secrets"',
    ],
    [
      ['  - name: gh', '    verification: gitlab', '    secret: a'],
      'gw.yaml:7: webhooks.0.verification: Invalid option: expected one of "hmac-sha256"|"stripe"|"slack"|"github"|"standard-webhooks"',
    ],
    [
      ['  - { name: gh, verification: github, secret: a, timestamp_header: X-Timestamp }'],
      'gw.yaml:6: webhooks.0.timestamp_header: timestamp_header applies to verification "hmac-sha256" only (the other modes define their own timestamp)',
    ],
    [
      ['  - { name: sw, verification: standard-webhooks, secret: "whsec_not base64!" }'],
      'gw.yaml:6: webhooks.0.secret: a "whsec_" secret must be followed by its key in base64',
    ],
    [
      [
        '  - name: sw',
        '    verification: standard-webhooks',
        '    secrets:',
        '      - whsec_c2VjcmV0',
        '      - whsec_',
      ],
      'gw.yaml:10: webhooks.0.secrets.1: a "whsec_" secret must be followed by its key in base64',
    ],
    [
      [
        '  - name: gh',
        '    verification: github',
        '    secret: a',
        '    handlers:',
        '      - { event: push, agent: billing, prompt: hi }',
      ],
      'gw.yaml:10: webhooks.0.handlers.0.event: event must start with "gh." (events are named <webhook>.<event type>) or be "*"',
    ],
    [
      [
        '  - name: gh',
        '    verification: github',
        '    secret: a',
        '    handlers:',
        '      - { event: gh.push, agent: billing, prompt: "{{#items}}open" }',
      ],
      'gw.yaml:10: webhooks.0.handlers.0.prompt: invalid prompt template: Unclosed section "items" at 14',
    ],
    [
      [
        '  - name: gh',
        '    verification: github',
        '    secret: a',
        '    handlers:',
        '      - { event: gh.*.push, agent: billing, prompt: hi }',
      ],
      'gw.yaml:10: webhooks.0.handlers.0.event: event is a dotted name such as "stripe.invoice.paid", optionally ending in ".*"',
    ],
    [
      ['  - { name: gh, verification: github, secret: a }', '  - { name: gh, verification: slack, secret: b }'],
      'gw.yaml:7: webhooks.1.name: duplicate webhook name "gh"',
    ],
    [
      ['  - { name: my.hook, verification: github, secret: a }'],
      'gw.yaml:6: webhooks.0.name: webhook names are 1-64 letters, digits, _ or -, starting with a letter or digit',
    ],
    [
      ['  - { name: gh, verification: github, secret: a, signatur_header: X }'],
      'gw.yaml:6: unknown key "signatur_header" in webhooks.0',
    ],
  ])('reports a bad webhook entry with its line (%#)', (lines, message) => {
    expect(configError(yaml(...BASE, ...lines))).toBe(message);
  });

  it('reports a bad webhook_settings value with its line', () => {
    expect(configError(yaml(...BASE.slice(0, 4), 'webhook_settings:', '  path_prefix: webhooks/'))).toBe(
      'gw.yaml:6: webhook_settings.path_prefix: path_prefix is a path such as "/webhooks" (no trailing slash)',
    );
  });
});
