// Run by event-maps.test.ts with --allow-natives-syntax: prints whether the newest run events share one V8 map.
import { createInProcessRunEventBus } from '../../src/bus/in-process-run-event-bus.js';
import { countMapChanges } from '../support/v8-maps.js';

const bus = createInProcessRunEventBus({ logLimit: 1000 });
// Enough publishes for V8 to optimise publish(): the spread's map per object showed only then.
for (let index = 0; index < 30_000; index += 1)
  await bus.publish('run_maps', { type: 'text-delta', delta: `delta ${index}` });
const events = await bus.history('run_maps');
console.log(JSON.stringify({ events: events.length, distinct: countMapChanges(events) }));
await bus.close();
