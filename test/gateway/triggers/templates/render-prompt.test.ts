import { describe, expect, it } from 'vitest';
import { renderPrompt } from '../../../../src/gateway/triggers/templates/index.js';

const payload = {
  type: 'invoice.paid',
  data: { object: { id: 'in_1', amount: 1200, paid: false, lines: [{ sku: 'a' }, { sku: 'b' }], meta: { k: 'v' } } },
  note: '<b>&"\'</b>',
};

describe('renderPrompt', () => {
  it.each([
    ['Invoice {{data.object.id}} for {{data.object.amount}}', 'Invoice in_1 for 1200'],
    ['missing: [{{data.object.nope}}] [{{nope.deeper}}] [{{data.object.id.deeper}}]', 'missing: [] [] []'],
    ['not escaped: {{note}}', 'not escaped: <b>&"\'</b>'],
    [
      'objects as JSON: {{data.object.meta}} {{data.object.lines}}',
      'objects as JSON: {"k":"v"} [{"sku":"a"},{"sku":"b"}]',
    ],
    ['false: {{data.object.paid}}', 'false: false'],
    ['{{#data.object.lines}}{{sku}},{{/data.object.lines}}', 'a,b,'],
    ['{{^data.object.paid}}unpaid{{/data.object.paid}}', 'unpaid'],
  ])('%s', (template, expected) => {
    expect(renderPrompt(template, payload)).toBe(expected);
  });

  it("reaches only the payload's own fields, never inherited functions", () => {
    expect(
      renderPrompt(
        '[{{constructor}}][{{data.constructor.name}}][{{data.object.lines.map}}][{{toString}}][{{__proto__}}]',
        payload,
      ),
    ).toBe('[][][][][]');
    expect(renderPrompt('[{{type.length}}]', payload)).toBe('[12]');
  });

  it('keeps a payload field named __proto__ as data', () => {
    expect(renderPrompt('{{__proto__.x}}', JSON.parse('{"__proto__": {"x": "own"}}'))).toBe('own');
  });
});
