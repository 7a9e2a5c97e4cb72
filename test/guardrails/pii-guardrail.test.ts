import { describe, expect, it } from 'vitest';
import { PII_TYPES, type PiiConfig } from '../../src/config/index.js';
import { createPiiGuardrail } from '../../src/guardrails/pii-guardrail.js';
import { redactText } from '../../src/guardrails/redact-text.js';

const ALL: PiiConfig = { enabled: true, action: 'redact', types: [...PII_TYPES] };
const pii = createPiiGuardrail(ALL);
const check = (text: string) => pii.check(text, { stage: 'input', sources: [] });
const found = (text: string) => check(text).map((v) => [v.entity, text.slice(v.span![0], v.span![1])]);
const redact = (text: string) => redactText(text, check(text));

describe('PII detection and redaction', () => {
  it.each([
    ['email', 'Write to jane.doe+news@mail.example.co.uk today.', 'jane.doe+news@mail.example.co.uk'],
    ['email', 'Contact: BOB_99@Example.COM', 'BOB_99@Example.COM'],
    ['phone', 'Call +1 (415) 555-2671 now', '+1 (415) 555-2671'],
    ['phone', 'London office: +44 20 7946 0958.', '+44 20 7946 0958'],
    ['phone', 'mobile +4915123456789', '+4915123456789'],
    ['phone', 'US: (415) 555-2671', '(415) 555-2671'],
    ['phone', 'US: 415-555-2671', '415-555-2671'],
    ['phone', 'toll free 1-800-555-0199', '1-800-555-0199'],
    ['phone', 'UK landline 020 7946 0958', '020 7946 0958'],
    ['phone', 'UK mobile 07700 900123', '07700 900123'],
    ['phone', 'Paris 01 23 45 67 89', '01 23 45 67 89'],
    ['phone', 'call me at 4155552671', '4155552671'],
    ['ssn', 'SSN 123-45-6789', '123-45-6789'],
    ['ssn', 'my social security number is 123456789', '123456789'],
    ['credit_card', 'Visa 4111 1111 1111 1111 exp 12/27', '4111 1111 1111 1111'],
    ['credit_card', 'MC 5555-5555-5555-4444', '5555-5555-5555-4444'],
    ['credit_card', 'Amex 378282246310005', '378282246310005'],
    ['credit_card', 'card 4111 1111 1111 1111 12 pieces', '4111 1111 1111 1111'],
    ['iban', 'IBAN DE89 3704 0044 0532 0130 00 thanks', 'DE89 3704 0044 0532 0130 00'],
    ['iban', 'pay to GB82WEST12345698765432.', 'GB82WEST12345698765432'],
    ['iban', 'FR14 2004 1010 0505 0001 3M02 606 OK', 'FR14 2004 1010 0505 0001 3M02 606'],
    ['ip_address', 'server at 192.168.1.10.', '192.168.1.10'],
    ['ip_address', 'host 2001:db8::8a2e:370:7334 is up', '2001:db8::8a2e:370:7334'],
    ['ip_address', 'link-local fe80::1ff:fe23:4567:890a', 'fe80::1ff:fe23:4567:890a'],
  ])('finds %s in %j', (entity, text, match) => {
    expect(found(text)).toEqual([[entity, match]]);
  });

  it('redacts each type with its own marker', () => {
    const text =
      'Mail a@b.io, call +1 415 555 2671, SSN 123-45-6789, card 4111-1111-1111-1111, IBAN DE89370400440532013000, IP 10.0.0.7';
    expect(redact(text)).toBe(
      'Mail [REDACTED_EMAIL], call [REDACTED_PHONE], SSN [REDACTED_SSN], card [REDACTED_CREDIT_CARD], IBAN [REDACTED_IBAN], IP [REDACTED_IP_ADDRESS]',
    );
  });

  it.each([
    'It happened in 2024 and again in 1999.',
    'Due 2024-01-15, or 15.01.2024, or 12/05/2024 10:30.',
    'We shipped 3 items and 12 boxes, total $1,234,567.89.',
    'pi is 3.14159 and e is 2.71828',
    'Order number 1234567890 shipped.',
    'Card 4111 1111 1111 1112 fails Luhn.',
    'IBAN DE89 3704 0044 0532 0130 01 has a bad checksum.',
    'SSNs are never 000-12-3456 or 666-12-3456 or 912-34-5678.',
    'Not addresses: 999.1.1.1, 1.2.3.4.5, v1.2.3.4, 10:30:45, std::vector, ::1',
    'MAC 00:1A:2B:3C:4D:5E is hardware.',
    'user@localhost and @mention are not addresses',
    'ISBN 978-3-16-148410-0 and zip 94103',
    'Dates 01.02.2024 and 05/06/2024 1430.',
  ])('reports nothing in %j', (text) => {
    expect(found(text)).toEqual([]);
  });

  it('only looks for the configured types and reports the configured action', () => {
    const emailOnly = createPiiGuardrail({ enabled: true, action: 'block', types: ['email'] });
    const verdicts = emailOnly.check('a@b.io and 192.168.0.1', { stage: 'output', sources: [] });
    expect(verdicts).toEqual([{ type: 'pii', entity: 'email', action: 'block', span: [0, 6] }]);
  });

  it('reports each occurrence', () => {
    expect(found('a@b.io, c@d.io')).toEqual([
      ['email', 'a@b.io'],
      ['email', 'c@d.io'],
    ]);
  });

  it('handles long adversarial input quickly', () => {
    const text = `${'1 '.repeat(5_000)}${'a'.repeat(10_000)}@${'b-'.repeat(5_000)} +${'1-'.repeat(5_000)}`;
    const started = Date.now();
    check(text);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
