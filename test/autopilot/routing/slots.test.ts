import { describe, expect, it } from 'vitest';
import { extractKeyValues } from '../../../src/autopilot/routing/extract-key-values.js';
import { parseQuotaHeader } from '../../../src/autopilot/parse-quota-header.js';
import { resolveSlots } from '../../../src/autopilot/routing/resolve-slots.js';
import { signRequest } from '../../../src/autopilot/blueprints/sign-request.js';
import { coerceSlotValue } from '../../../src/autopilot/routing/slot-types.js';

describe('key=value extraction from goal text', () => {
  it('reads bare, double-quoted and single-quoted values', () => {
    expect(
      extractKeyValues('watch vendors=acme,globex schedule="0 9 * * 1" note=\'two words\' url=https://x.test/a?b=c'),
    ).toEqual({
      vendors: 'acme,globex',
      schedule: '0 9 * * 1',
      note: 'two words',
      url: 'https://x.test/a?b=c',
    });
  });

  it('ignores = inside words and keeps escaped quotes', () => {
    expect(extractKeyValues('a==b title="say \\"hi\\""')).toEqual({ title: 'say "hi"' });
  });
});

describe('slot types', () => {
  it.each([
    ['int', '42', 42],
    ['float', '0.5', 0.5],
    ['bool', 'yes', true],
    ['list[str]', ' a, b ,,c ', ['a', 'b', 'c']],
    ['list[str]', ['x', 1], ['x', '1']],
    ['cron', '0  9 * * 1', '0 9 * * 1'],
    ['url', 'https://example.com', 'https://example.com/'],
    ['str', 7, '7'],
  ] as const)('%s accepts %j', (type, raw, value) => {
    expect(coerceSlotValue(type, raw)).toEqual({ ok: true, value });
  });

  it.each([
    ['int', '4.5'],
    ['cron', '0 9 * *'],
    ['cron', '0 9 * * 1 2026'],
    ['cron', '61 9 * * 1'],
    ['url', 'ftp://example.com'],
    ['list[str]', ''],
    ['bool', 'maybe'],
  ] as const)('%s rejects %j', (type, raw) => {
    expect(coerceSlotValue(type, raw).ok).toBe(false);
  });
});

describe('slot resolution order', () => {
  const specs = [
    { name: 'vendors', type: 'list[str]' as const, required: true },
    { name: 'schedule', type: 'cron' as const, required: true },
    { name: 'limit', type: 'int' as const, required: false, default: 3 },
  ];

  it('explicit beats goal text beats the model beats defaults; invalid model values are dropped', () => {
    const resolved = resolveSlots(specs, {
      explicit: { vendors: ['x'] },
      extracted: { vendors: 'y', limit: '9' },
      inferred: { schedule: 'every monday', limit: 1 },
    });
    expect(resolved.values).toEqual({ vendors: ['x'], limit: 9 });
    expect(resolved.origin).toEqual({ vendors: 'explicit', limit: 'goal' });
    expect(resolved.missing).toEqual(['schedule']);
    expect(resolved.errors).toEqual([]);
  });

  it('takes a valid model value and accepts budget_usd as a slot', () => {
    const resolved = resolveSlots(specs, {
      inferred: { schedule: '0 9 * * 1', vendors: ['a'] },
      explicit: { budget_usd: '0.5' },
    });
    expect(resolved.values).toEqual({ vendors: ['a'], schedule: '0 9 * * 1', limit: 3, budget_usd: 0.5 });
  });
});

describe('hosted service wire details', () => {
  it('signs with HMAC-SHA256 over METHOD, path, timestamp and the body hash (vector computed with Python hmac)', () => {
    const signature = signRequest({
      method: 'POST',
      path: '/v1/blueprints/retrieve',
      timestamp: '2026-11-23T08:00:00.000Z',
      body: '{"goal":"watch prices","k":5}',
      secretHex: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
    });
    expect(signature).toBe('c1a1acbb9b15fcc9b01f9eade3e21bb07c6a279533b5afe999d8f5ff77503c82');
  });

  it('parses X-Service-Quota', () => {
    expect(parseQuotaHeader('tier=free; endpoint=retrieve;used=3;limit=100;reset=2026-12-01T00:00:00Z')).toEqual({
      tier: 'free',
      endpoint: 'retrieve',
      used: 3,
      limit: 100,
      reset: '2026-12-01T00:00:00Z',
    });
    expect(parseQuotaHeader('garbage')).toBeUndefined();
    expect(parseQuotaHeader(null)).toBeUndefined();
  });
});
