import { describe, expect, it } from 'vitest';
import { guardrailsOverrideSchema, parseConfigText } from '../../src/config/index.js';
import { resolveGuardrails } from '../../src/guardrails/index.js';

const parse = (yaml: string) => parseConfigText(yaml, 'gateway.yaml').guardrails;
const errorOf = (yaml: string) => {
  try {
    parse(yaml);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a config error');
};

describe('guardrails config section', () => {
  it('is empty (every check off) when absent', () => {
    expect(parse('agents: []\n')).toEqual({});
  });

  it('fills in defaults for a section that is present', () => {
    expect(parse('guardrails:\n  pii: {}\n  content_filter: { blocklist: [darn] }\n  hallucination: {}\n')).toEqual({
      pii: { enabled: true, action: 'redact', types: ['email', 'phone', 'ssn', 'credit_card', 'iban', 'ip_address'] },
      content_filter: { enabled: true, action: 'block', blocklist: ['darn'], patterns: [] },
      hallucination: { enabled: true, threshold: 0.3, action: 'warn' },
    });
  });

  it.each([
    [
      'guardrails:\n  content_filter:\n    patterns: ["a(b"]\n',
      /gateway\.yaml:3: guardrails\.content_filter\.patterns\.0: invalid regular expression \/a\(b\//,
    ],
    ['guardrails:\n  content_filter:\n    patterns: ["x*"]\n', /gateway\.yaml:3: .*matches the empty string/],
    ['guardrails:\n  pii:\n    types: [email, passport]\n', /gateway\.yaml:3: guardrails\.pii\.types\.1: /],
    ['guardrails:\n  pii:\n    types: []\n', /list at least one PII type/],
    ['guardrails:\n  content_filter:\n    action: redact\n', /guardrails\.content_filter\.action/],
    ['guardrails:\n  hallucination:\n    threshold: 1.5\n', /gateway\.yaml:3: guardrails\.hallucination\.threshold/],
    ['guardrails:\n  hallucination:\n    action: block\n', /guardrails\.hallucination\.action/],
    [
      'guardrails:\n  pii:\n    enabled: true\n    mode: strict\n',
      /gateway\.yaml:4: unknown key "mode" in guardrails\.pii/,
    ],
    ['guardrails:\n  toxicity: {}\n', /unknown key "toxicity" in guardrails/],
  ])('rejects %j', (yaml, message) => {
    expect(errorOf(yaml)).toMatch(message);
  });
});

describe('resolveGuardrails', () => {
  const global = parse(
    'guardrails:\n  pii: { action: redact }\n  content_filter: { blocklist: [darn], action: warn }\n',
  );

  it('returns the global settings when the agent has none', () => {
    expect(resolveGuardrails(global, undefined)).toBe(global);
  });

  it('merges the agent fields over the global section, lists replacing lists', () => {
    const override = guardrailsOverrideSchema.parse({
      pii: { action: 'block' },
      content_filter: { blocklist: ['heck'] },
    });
    expect(resolveGuardrails(global, override)).toEqual({
      pii: { ...global.pii, action: 'block' },
      content_filter: { enabled: true, action: 'warn', blocklist: ['heck'], patterns: [] },
    });
  });

  it('lets an agent turn a global check off, or add one with defaults', () => {
    const override = guardrailsOverrideSchema.parse({ pii: { enabled: false }, hallucination: { threshold: 0.5 } });
    const resolved = resolveGuardrails(global, override);
    expect(resolved.pii?.enabled).toBe(false);
    expect(resolved.hallucination).toEqual({ enabled: true, threshold: 0.5, action: 'warn' });
  });

  it('validates an agent override like the global section', () => {
    expect(guardrailsOverrideSchema.safeParse({ content_filter: { patterns: ['('] } }).success).toBe(false);
    expect(guardrailsOverrideSchema.safeParse({ pii: { action: 'shout' } }).success).toBe(false);
    expect(guardrailsOverrideSchema.parse({ pii: {} })).toEqual({ pii: {} });
  });
});
