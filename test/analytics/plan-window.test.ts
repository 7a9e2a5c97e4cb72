import { describe, expect, it } from 'vitest';
import { planWindow } from '../../src/analytics/plan-window.js';

describe('planWindow', () => {
  it('reads an unbounded window from the daily totals alone', () => {
    expect(planWindow()).toEqual({ days: { fromDay: undefined, toDay: undefined }, edges: [] });
  });

  it('reads whole days from the totals and the partial days at each edge from the records', () => {
    expect(planWindow('2026-03-01T12:00:00.000Z', '2026-03-04T06:00:00.000Z')).toEqual({
      days: { fromDay: '2026-03-02', toDay: '2026-03-04' },
      edges: [
        { since: '2026-03-01T12:00:00.000Z', until: '2026-03-02T00:00:00.000Z' },
        { since: '2026-03-04T00:00:00.000Z', until: '2026-03-04T06:00:00.000Z' },
      ],
    });
  });

  it('needs no edge when the window starts and ends at midnight', () => {
    expect(planWindow('2026-03-01T00:00:00.000Z', '2026-03-03T00:00:00.000Z')).toEqual({
      days: { fromDay: '2026-03-01', toDay: '2026-03-03' },
      edges: [],
    });
  });

  it('reads a window without a whole day from the records only', () => {
    expect(planWindow('2026-03-01T12:00:00.000Z', '2026-03-01T13:00:00.000Z')).toEqual({
      edges: [{ since: '2026-03-01T12:00:00.000Z', until: '2026-03-01T13:00:00.000Z' }],
    });
    expect(planWindow('2026-03-01T23:00:00.000Z', '2026-03-02T01:00:00.000Z')).toEqual({
      edges: [{ since: '2026-03-01T23:00:00.000Z', until: '2026-03-02T01:00:00.000Z' }],
    });
  });

  it('keeps one-sided windows open on the other side', () => {
    expect(planWindow('2026-03-01T12:00:00.000Z')).toEqual({
      days: { fromDay: '2026-03-02', toDay: undefined },
      edges: [{ since: '2026-03-01T12:00:00.000Z', until: '2026-03-02T00:00:00.000Z' }],
    });
    expect(planWindow(undefined, '2026-03-01T12:00:00.000Z')).toEqual({
      days: { fromDay: undefined, toDay: '2026-03-01' },
      edges: [{ since: '2026-03-01T00:00:00.000Z', until: '2026-03-01T12:00:00.000Z' }],
    });
  });

  it('crosses month and year ends', () => {
    expect(planWindow('2026-12-31T18:00:00.000Z').days).toEqual({ fromDay: '2027-01-01', toDay: undefined });
  });
});
