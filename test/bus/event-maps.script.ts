// Run by event-maps.test.ts with --allow-natives-syntax: prints whether the newest run events share one V8 map.
import { createInProcessRunEventBus } from '../../src/bus/in-process-run-event-bus.js';

// eslint-disable-next-line @typescript-eslint/no-implied-eval -- V8's natives syntax, which TypeScript cannot parse
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const bus = createInProcessRunEventBus({ logLimit: 1000 });
// Enough publishes for V8 to optimise publish(): the spread's map per object showed only then.
for (let index = 0; index < 30_000; index += 1)
  await bus.publish('run_maps', { type: 'text-delta', delta: `delta ${index}` });
const events = await bus.history('run_maps');
let distinct = 0;
for (let index = 1; index < events.length; index += 1)
  if (!haveSameMap(events[index - 1], events[index])) distinct += 1;
console.log(JSON.stringify({ events: events.length, distinct }));
await bus.close();
