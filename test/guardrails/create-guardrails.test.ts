import { describe, expect, it } from 'vitest';
import { guardrailsSchema } from '../../src/config/index.js';
import { createGuardrails } from '../../src/guardrails/index.js';

const guardrails = (config: unknown) => createGuardrails(guardrailsSchema.parse(config));

describe('createGuardrails', () => {
  it('does nothing when no check is configured', () => {
    const none = guardrails({});
    expect(none.checkInput('mail a@b.io, darn')).toEqual({ verdicts: [], blocked: false, text: 'mail a@b.io, darn' });
    const redactor = none.createStreamRedactor();
    expect(redactor.push('a@b')).toBe('a@b');
    expect(redactor.flush()).toBe('');
  });

  it('redacts PII in input and output and reports every hit', () => {
    const g = guardrails({ pii: { action: 'redact' } });
    const result = g.checkInput('I am jane@example.com, card 4111 1111 1111 1111');
    expect(result.text).toBe('I am [REDACTED_EMAIL], card [REDACTED_CREDIT_CARD]');
    expect(result.blocked).toBe(false);
    expect(result.verdicts.map((v) => [v.type, v.entity, v.action])).toEqual([
      ['pii', 'email', 'redact'],
      ['pii', 'credit_card', 'redact'],
    ]);
    expect(g.checkOutput('write to jane@example.com').text).toBe('write to [REDACTED_EMAIL]');
  });

  it('blocks on a block action and leaves the text as is for warn and log', () => {
    const g = guardrails({ pii: { action: 'warn' }, content_filter: { action: 'block', blocklist: ['darn'] } });
    const result = g.checkInput('darn, mail a@b.io');
    expect(result.blocked).toBe(true);
    expect(result.text).toBe('darn, mail a@b.io');
    expect(result.verdicts.map((v) => v.action)).toEqual(['warn', 'block']);
  });

  it('skips a disabled check', () => {
    expect(guardrails({ pii: { enabled: false } }).checkInput('a@b.io').verdicts).toEqual([]);
  });

  it('grades answers against sources only on output', () => {
    const g = guardrails({ hallucination: { threshold: 0.3, action: 'log' } });
    const answer = 'The Eiffel Tower opened in 1889.';
    expect(g.checkInput(answer).verdicts).toEqual([]);
    expect(g.checkOutput(answer).verdicts).toEqual([]);
    expect(g.checkOutput(answer, ['{"city":"Paris","temp":21}']).verdicts).toMatchObject([
      { type: 'hallucination', action: 'log' },
    ]);
  });

  it('streams redacted output that matches the non-streamed result', () => {
    const g = guardrails({ pii: {} });
    const redactor = g.createStreamRedactor();
    const chunks = ['Reach me at jane', '@exam', 'ple.com or 4111 11', '11 1111 1111.'];
    const streamed = chunks.map((chunk) => redactor.push(chunk)).join('') + redactor.flush();
    expect(streamed).toBe(g.checkOutput(chunks.join('')).text);
    expect(streamed).toBe('Reach me at [REDACTED_EMAIL] or [REDACTED_CREDIT_CARD].');
  });

  it('does not redact while streaming when PII is only reported', () => {
    const redactor = guardrails({ pii: { action: 'log' } }).createStreamRedactor();
    expect(redactor.push('a@b.io ')).toBe('a@b.io ');
  });
});
