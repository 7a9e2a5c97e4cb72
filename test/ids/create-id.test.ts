import { afterEach, describe, expect, it, vi } from 'vitest';
import { createId } from '../../src/ids.js';

describe('createId', () => {
  afterEach(() => vi.useRealTimers());

  it('makes prefixed 24-hex-digit ids, unique within a burst', () => {
    const ids = Array.from({ length: 5_000 }, () => createId('run'));
    for (const id of ids) expect(id).toMatch(/^run_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts ids of later milliseconds after earlier ones, so new rows append to their index', () => {
    vi.useFakeTimers({ now: new Date('2026-11-22T00:00:00.000Z') });
    const first = createId('step');
    vi.setSystemTime(new Date('2026-11-22T00:00:00.001Z'));
    const second = createId('step');
    vi.setSystemTime(new Date('2030-01-01T00:00:00.000Z'));
    const third = createId('step');
    expect([third, first, second].sort()).toEqual([first, second, third]);
  });
});
