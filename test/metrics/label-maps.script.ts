// Run by label-maps.test.ts with --allow-natives-syntax: prints whether the newest label objects of each kind
// that observeUsage hands to prom-client share one V8 map.
import { Counter, Histogram } from 'prom-client';
import { createMetrics } from '../../src/http/metrics.js';
import { countMapChanges } from '../support/v8-maps.js';

const seen = new Map<string, object[]>();
const keep = (name: string, labels: object) => {
  const key = `${name} ${Object.keys(labels).join(',')}`;
  const list = seen.get(key) ?? [];
  if (list.length >= 1000) list.shift();
  list.push(labels);
  seen.set(key, list);
};
// prom-client picks inc/observe per instance from these: wrapping them sees every label object.
type Recorder = (this: { name: string }, labels: unknown, value?: number) => void;
const wrap = (prototype: object, method: string) => {
  const target = prototype as Record<string, Recorder>;
  const original = target[method];
  target[method] = function (labels, value) {
    if (typeof labels === 'object' && labels !== null) keep(this.name, labels);
    original.call(this, labels, value);
  };
};
wrap(Counter.prototype, 'incWithoutExemplar');
wrap(Histogram.prototype, 'observeWithoutExemplar');

const metrics = createMetrics({ agentNames: ['a'], activeRuns: () => 0, activeSessions: async () => 0 });
// Enough calls for V8 to optimise observeUsage(): the spread's map per object showed only then.
for (let index = 0; index < 30_000; index += 1)
  metrics.observeUsage({
    agent_name: 'a',
    model: 'openai/gpt-4o',
    input_tokens: index,
    output_tokens: 3,
    cost_usd: 0.001,
    status: 'ok',
    latency_ms: 20,
    ttft_ms: 5,
    provider: 'openai',
    provider_type: 'openai',
  });
console.log(JSON.stringify(Object.fromEntries([...seen].map(([key, list]) => [key, countMapChanges(list)]))));
