// Run by update-maps.test.ts with --allow-natives-syntax: prints whether the newest A2A chunk updates made from a
// run's text deltas share one V8 map.
import type { RunEvent } from '../../../src/bus/index.js';
import { createRunEventMapper } from '../../../src/gateway/a2a/map-run-events.js';
import { countMapChanges } from '../../support/v8-maps.js';

const mapper = createRunEventMapper({ taskId: 'task-1', contextId: 'context-1' });
const updates: object[] = [];
// Enough deltas for V8 to optimise the mapper: the spread's map per object showed only then.
for (let seq = 1; seq <= 30_000; seq += 1) {
  const event: RunEvent = { type: 'text-delta', delta: `delta ${seq}`, runId: 'run_maps', seq, at: '' };
  for (const update of mapper.map(event)) updates.push(update.data);
}
const newest = updates.slice(-1000);
console.log(JSON.stringify({ updates: newest.length, distinct: countMapChanges(newest) }));
