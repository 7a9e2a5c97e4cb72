import { describe, expect, it } from 'vitest';
import { PII_TYPES } from '../../src/config/index.js';
import { createPiiGuardrail } from '../../src/guardrails/pii-guardrail.js';
import { redactText } from '../../src/guardrails/redact-text.js';
import { createStreamRedactor } from '../../src/guardrails/stream-redactor.js';

const pii = createPiiGuardrail({ enabled: true, action: 'redact', types: [...PII_TYPES] });
const find = (text: string) => pii.check(text, { stage: 'output', sources: [] });

function stream(chunks: string[], maxHeldChars?: number): { out: string; released: string[] } {
  const redactor = createStreamRedactor(find, { maxHeldChars });
  const released = chunks.map((chunk) => redactor.push(chunk));
  released.push(redactor.flush());
  return { out: released.join(''), released };
}

const TEXT =
  'Sure! Reach Jane at jane.doe@example.com or +1 (415) 555-2671; card 4111 1111 1111 1111, ' +
  'IBAN GB82 WEST 1234 5698 7654 32, server 192.168.10.20, SSN 123-45-6789.\nCall me at 4155552671 after 2024.';

describe('createStreamRedactor', () => {
  it('redacts an e-mail address split across two chunks', () => {
    const { out, released } = stream(['Write to jane.do', 'e@example.com please']);
    expect(out).toBe('Write to [REDACTED_EMAIL] please');
    expect(released[0]).toBe('Write to ');
  });

  it('redacts a card number split across chunks at a space', () => {
    expect(stream(['Card: 4111 1111', ' 1111 1111 ok']).out).toBe('Card: [REDACTED_CREDIT_CARD] ok');
  });

  it('gives the same text as redacting at once, for every split into two chunks', () => {
    const expected = redactText(TEXT, find(TEXT));
    expect(expected).not.toContain('jane.doe');
    for (let cut = 0; cut <= TEXT.length; cut++) {
      expect(stream([TEXT.slice(0, cut), TEXT.slice(cut)]).out, `cut at ${cut}`).toBe(expected);
    }
  });

  it('gives the same text as redacting at once, one character at a time', () => {
    expect(stream([...TEXT]).out).toBe(redactText(TEXT, find(TEXT)));
  });

  it('releases plain prose with at most the last word held back', () => {
    const { released } = stream(['The weather ', 'in Paris is ', 'sunny today']);
    expect(released).toEqual(['The weather ', 'in Paris is ', 'sunny ', 'today']);
  });

  it('holds a trailing run of digit groups that may still grow into a number', () => {
    const { released } = stream(['Dial +44 20 ', '7946 0958 now']);
    expect(released[0]).toBe('Dial ');
    expect(released.join('')).toBe('Dial [REDACTED_PHONE] now');
  });

  it('never holds back more than the cap', () => {
    const redactor = createStreamRedactor(find, { maxHeldChars: 64 });
    let released = '';
    for (const [index, char] of [...'x'.repeat(1_000)].entries()) {
      released += redactor.push(char);
      // Pushed so far minus released so far is what the redactor holds.
      expect(index + 1 - released.length).toBeLessThanOrEqual(64);
    }
    expect(released.length).toBe(1_000 - 64);
    expect(released + redactor.flush()).toBe('x'.repeat(1_000));
  });

  it('redacts a match whole when the cap forces it out of a long word', () => {
    const text = `${'/'.repeat(60)}jane.doe@example.com${'/'.repeat(60)}`;
    const out = stream([...text], 32).out;
    expect(out).toBe(`${'/'.repeat(60)}[REDACTED_EMAIL]${'/'.repeat(60)}`);
  });

  it('passes text through when nothing matches, releasing on whitespace', () => {
    expect(stream(['a', 'b', ' ', 'c']).released).toEqual(['', '', 'ab ', '', 'c']);
  });

  it('gives the same text as redacting at once, for random texts in random chunks', () => {
    const pieces = [
      'jane.doe@example.com',
      '+1 (415) 555-2671',
      '4111 1111 1111 1111',
      'GB82 WEST 1234 5698 7654 32',
      '192.168.10.20',
      '123-45-6789',
      'call me at 4155552671',
      '020 7946 0958',
      'Paris',
      'the',
      '2024',
      'OK',
      '(',
      'x@y',
    ];
    const separators = [' ', ' ', '', ', ', '\n', '  ', '-', '.'];
    let seed = 7;
    const random = (n: number) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * n);
    for (let round = 0; round < 300; round++) {
      let text = pieces[random(pieces.length)];
      for (let i = random(12); i >= 0; i--)
        text += separators[random(separators.length)] + pieces[random(pieces.length)];
      const chunks: string[] = [];
      for (let at = 0; at < text.length;) chunks.push(text.slice(at, (at += 1 + random(10))));
      expect(stream(chunks).out, JSON.stringify(chunks)).toBe(redactText(text, find(text)));
    }
  });
});
