import type { Kysely } from 'kysely';
import { createAnalyticsWriteStore, type AnalyticsWriteStore, type RiskType } from '../../src/analytics/index.js';
import type { Database } from '../../src/db/index.js';

type Batch = Parameters<AnalyticsWriteStore['writeBatch']>[0];

export const BENCH_START = Date.parse('2026-01-01T00:00:00.000Z');
export const BENCH_DAYS = 90;
export const AGENTS = Array.from({ length: 20 }, (_, i) => `agent-${String(i).padStart(2, '0')}`);
const MODELS = [
  { model: 'openai/gpt-4o', input: 2.5, output: 10 },
  { model: 'openai/gpt-4o-mini', input: 0.15, output: 0.6 },
  { model: 'anthropic/claude-sonnet-4', input: 3, output: 15 },
  { model: 'anthropic/claude-haiku-3-5', input: 0.8, output: 4 },
  { model: 'groq/llama-3.1-70b', input: 0.59, output: 0.79 },
  { model: 'upstream/llama3.1', input: 0, output: 0 },
  { model: 'together/mixtral-8x7b', input: 0.6, output: 0.6 },
  { model: 'openrouter/deepseek-chat', input: 0.27, output: 1.1 },
];
const RISK_TYPES: RiskType[] = ['pii', 'pii', 'content_filter', 'hallucination'];
const BATCH = 10_000;
const DAY_MS = 86_400_000;

/** A small seeded PRNG (mulberry32), so every run of the benchmark loads the same rows. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface LoadResult {
  rows: number;
  riskRows: number;
  seconds: number;
  rowsPerSecond: number;
}

/**
 * Loads `rows` usage records spread evenly over BENCH_DAYS (in time order, as a live service writes
 * them) through the same write store the recorder uses, so the daily totals are kept as in production.
 */
export async function loadUsage(db: Kysely<Database>, rows: number, riskRows: number): Promise<LoadResult> {
  const store: AnalyticsWriteStore = createAnalyticsWriteStore(db);
  const random = createRandom(42);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  const step = (BENCH_DAYS * DAY_MS) / Math.max(rows, 1);
  const riskEvery = riskRows > 0 ? rows / riskRows : Number.POSITIVE_INFINITY;
  const started = performance.now();
  let risksMade = 0;
  for (let first = 0; first < rows; first += BATCH) {
    const usage: Batch['usage'] = [];
    const risks: Batch['risks'] = [];
    for (let i = first; i < Math.min(first + BATCH, rows); i += 1) {
      const price = pick(MODELS);
      const agent = pick(AGENTS);
      const input = 50 + Math.floor(random() * 4000);
      const output = 10 + Math.floor(random() * 1000);
      const createdAt = new Date(BENCH_START + Math.floor(i * step)).toISOString();
      const cost = Math.round(((input * price.input + output * price.output) / 1_000_000) * 1e9) / 1e9;
      const runId = `run_${Math.floor(i / 3)}`;
      usage.push({
        usage_id: `use_${i}`,
        run_id: runId,
        step_id: `step_${i}`,
        agent_name: agent,
        session_id: null,
        mission_id: null,
        mission_step: null,
        end_user: null,
        source: 'chat',
        provider: price.model.split('/')[0],
        model: price.model,
        input_tokens: input,
        output_tokens: output,
        cached_tokens: 0,
        total_tokens: input + output,
        cost_usd: cost,
        latency_ms: 200 + Math.floor(random() * 3000),
        ttft_ms: null,
        status: random() < 0.02 ? 'error' : 'ok',
        priced: cost > 0 ? 1 : 0,
        estimated: 0,
        created_at: createdAt,
      });
      while (risksMade < riskRows && risksMade * riskEvery <= i) {
        risks.push({
          event_id: `evt_${risksMade}`,
          run_id: runId,
          agent_name: agent,
          mission_id: null,
          mission_step: null,
          end_user: null,
          type: pick(RISK_TYPES),
          entity: 'email',
          action: 'redact',
          created_at: createdAt,
        });
        risksMade += 1;
      }
    }
    await store.writeBatch({ usage, risks });
  }
  const seconds = (performance.now() - started) / 1000;
  return { rows, riskRows: risksMade, seconds, rowsPerSecond: Math.round(rows / seconds) };
}

/** A UTC time `days` (fractional) after the start of the data. */
export function benchTime(days: number): string {
  return new Date(BENCH_START + days * DAY_MS).toISOString();
}
