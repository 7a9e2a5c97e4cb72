import { describe, expect, it } from 'vitest';
import { handlerKey, matchesEvent } from '../../../../src/gateway/triggers/templates/index.js';

describe('matchesEvent', () => {
  it.each([
    ['stripe.invoice.paid', 'stripe.invoice.paid', true],
    ['stripe.invoice.paid', 'stripe.invoice.paid.extra', false],
    ['stripe.invoice.*', 'stripe.invoice.paid', true],
    ['stripe.invoice.*', 'stripe.invoice.payment.failed', true],
    ['stripe.invoice.*', 'stripe.invoice', false],
    ['stripe.invoice.*', 'stripe.invoiceitem.created', false],
    ['stripe.*', 'stripe.customer.created', true],
    ['*', 'github.push', true],
  ])('%s against %s: %s', (pattern, event, expected) => {
    expect(matchesEvent(pattern, event)).toBe(expected);
  });

  it('keys a handler by what it does, not where it sits', () => {
    const handler = { event: 'a.b', agent: 'x', prompt: 'p' };
    expect(handlerKey({ ...handler })).toBe(handlerKey(handler));
    expect(handlerKey({ ...handler, prompt: 'q' })).not.toBe(handlerKey(handler));
  });
});
