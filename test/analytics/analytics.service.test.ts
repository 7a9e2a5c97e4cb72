import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createAnalyticsQueryStore,
  createAnalyticsService,
  createAnalyticsWriteStore,
  createUsageRecorder,
  type AnalyticsFilter,
  type AnalyticsService,
} from '../../src/analytics/index.js';
import type { DatabaseHandle } from '../../src/db/index.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';
import { openAnalyticsDatabase, RISK_SET, USAGE_SET } from './analytics-fixtures.js';

const WINDOWS: { name: string; filter: AnalyticsFilter; records: number; cost: number }[] = [
  {
    name: 'whole days',
    filter: { since: '2026-03-02T00:00:00.000Z', until: '2026-03-03T00:00:00.000Z' },
    records: 2,
    cost: 0.012623456,
  },
  {
    name: 'partial days at both edges',
    filter: { since: '2026-03-01T12:00:00.000Z', until: '2026-03-03T08:00:00.000Z' },
    records: 3,
    cost: 0.015623456,
  },
  {
    name: 'inside one day',
    filter: { since: '2026-03-03T08:30:00.000Z', until: '2026-03-03T08:30:00.001Z' },
    records: 2,
    cost: 0.1,
  },
  { name: 'open start', filter: { until: '2026-03-02T00:00:00.000Z' }, records: 2, cost: 0.0045 },
  { name: 'open end from midnight', filter: { since: '2026-03-05T00:00:00.000Z' }, records: 1, cost: 0.2 },
  { name: 'open end from mid-day', filter: { since: '2026-03-01T23:59:59.999Z' }, records: 6, cost: 0.315623456 },
  {
    name: 'across one midnight only',
    filter: { since: '2026-03-01T23:00:00.000Z', until: '2026-03-02T01:00:00.000Z' },
    records: 2,
    cost: 0.003123456,
  },
  {
    name: 'an agent and a window',
    filter: { agentName: 'other', since: '2026-03-02T06:00:00.000Z' },
    records: 1,
    cost: 0.0125,
  },
  { name: 'nothing in it', filter: { since: '2027-01-01T00:00:00.000Z' }, records: 0, cost: 0 },
  { name: 'an unknown agent', filter: { agentName: 'nobody' }, records: 0, cost: 0 },
];

await describeEachDialect('analytics service', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let analytics: AnalyticsService;
  let rawAnalytics: AnalyticsService;
  let empty: AnalyticsService;

  beforeAll(async () => {
    database = await dialect.create();
    handle = await openAnalyticsDatabase(database);
    const recorder = createUsageRecorder({ store: createAnalyticsWriteStore(handle.db) });
    await Promise.all([
      ...USAGE_SET.map((record) => recorder.record(record)),
      ...RISK_SET.map((event) => recorder.recordRisk(event)),
    ]);
    await recorder.close();
    const store = createAnalyticsQueryStore(handle.db);
    analytics = createAnalyticsService({ store });
    rawAnalytics = createAnalyticsService({ store, dailyTotals: false });
    empty = createAnalyticsService({
      store: {
        ...store,
        sumUsageRecords: async () => [],
        sumDailyTotals: async () => [],
        countRiskEvents: async () => [],
      },
    });
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  it('report costs per model and per agent, with a total that is the exact sum of the records', async () => {
    expect(await analytics.costs({})).toEqual({
      total_cost_usd: 0.317123456,
      by_model: { 'openai/gpt-4o': 0.2125, 'upstream/a': 0.101623456, 'upstream/b': 0.003 },
      by_agent: { helper: 0.3045, other: 0.012623456 },
      record_count: 7,
    });
    expect(await analytics.costs({ agentName: 'other' })).toEqual({
      total_cost_usd: 0.012623456,
      by_model: { 'openai/gpt-4o': 0.0125, 'upstream/a': 0.000123456 },
      by_agent: { other: 0.012623456 },
      record_count: 2,
    });
  });

  it('report tokens per model and per agent', async () => {
    expect(await analytics.usage({})).toEqual({
      total_tokens: 2468,
      by_model: { 'openai/gpt-4o': 1503, 'upstream/a': 665, 'upstream/b': 300 },
      by_agent: { helper: 953, other: 1515 },
      record_count: 7,
    });
  });

  it('compare models, most expensive first', async () => {
    expect(await analytics.models({})).toEqual([
      {
        model: 'openai/gpt-4o',
        total_cost_usd: 0.2125,
        total_tokens: 1503,
        request_count: 2,
        cost_per_1k_tokens: 0.141383899,
      },
      {
        model: 'upstream/a',
        total_cost_usd: 0.101623456,
        total_tokens: 665,
        request_count: 4,
        cost_per_1k_tokens: 0.152817227,
      },
      { model: 'upstream/b', total_cost_usd: 0.003, total_tokens: 300, request_count: 1, cost_per_1k_tokens: 0.01 },
    ]);
  });

  it('sum up each agent with the models it used', async () => {
    expect(await analytics.agents({})).toEqual([
      {
        agent_name: 'helper',
        total_cost_usd: 0.3045,
        total_tokens: 953,
        request_count: 5,
        models_used: ['openai/gpt-4o', 'upstream/a', 'upstream/b'],
      },
      {
        agent_name: 'other',
        total_cost_usd: 0.012623456,
        total_tokens: 1515,
        request_count: 2,
        models_used: ['openai/gpt-4o', 'upstream/a'],
      },
    ]);
    expect(await analytics.agents({ agentName: 'other', since: '2026-03-02T06:00:00.000Z' })).toEqual([
      {
        agent_name: 'other',
        total_cost_usd: 0.0125,
        total_tokens: 1500,
        request_count: 1,
        models_used: ['openai/gpt-4o'],
      },
    ]);
  });

  it('count risk events by type, per agent and per window', async () => {
    expect(await analytics.risks({})).toEqual({
      pii_events: 3,
      hallucination_flags: 1,
      content_filter_events: 2,
      total_events: 6,
    });
    expect(await analytics.risks({ agentName: 'other' })).toEqual({
      pii_events: 1,
      hallucination_flags: 1,
      content_filter_events: 0,
      total_events: 2,
    });
    expect(await analytics.risks({ since: '2026-03-01T10:00:01.000Z', until: '2026-03-04T00:00:00.000Z' })).toEqual({
      pii_events: 2,
      hallucination_flags: 1,
      content_filter_events: 1,
      total_events: 4,
    });
  });

  for (const window of WINDOWS) {
    it(`select the records of a window: ${window.name}`, async () => {
      const costs = await analytics.costs(window.filter);
      expect(costs.record_count).toBe(window.records);
      expect(costs.total_cost_usd).toBe(window.cost);
      // The daily totals give exactly what scanning every record gives, for every report.
      expect(costs).toEqual(await rawAnalytics.costs(window.filter));
      expect(await analytics.usage(window.filter)).toEqual(await rawAnalytics.usage(window.filter));
      expect(await analytics.models(window.filter)).toEqual(await rawAnalytics.models(window.filter));
      expect(await analytics.agents(window.filter)).toEqual(await rawAnalytics.agents(window.filter));
    });
  }

  it('answer zeros and empty lists when there are no records', async () => {
    expect(await empty.costs({})).toEqual({ total_cost_usd: 0, by_model: {}, by_agent: {}, record_count: 0 });
    expect(await empty.usage({})).toEqual({ total_tokens: 0, by_model: {}, by_agent: {}, record_count: 0 });
    expect(await empty.risks({})).toEqual({
      pii_events: 0,
      hallucination_flags: 0,
      content_filter_events: 0,
      total_events: 0,
    });
    expect(await empty.models({})).toEqual([]);
    expect(await empty.agents({})).toEqual([]);
    expect(await analytics.risks({ agentName: 'nobody' })).toEqual({
      pii_events: 0,
      hallucination_flags: 0,
      content_filter_events: 0,
      total_events: 0,
    });
  });
});
