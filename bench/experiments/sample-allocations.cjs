// A --require preload that samples what a gateway process allocates, collected objects included (V8's
// sampling heap profiler with includeObjectsCollectedByMajorGC/MinorGC; `node --heap-prof` keeps only what
// is still alive at exit, which hides short-lived garbage). Sampling starts SAMPLE_ALLOCATIONS_START_MS after
// start-up (default 0) and the profile is written to $SAMPLE_ALLOCATIONS_FILE (a `.heapprofile`, each
// gateway appending its pid) when the process is stopped with SIGINT, as bench/ab-cpu.ts and
// processes/start-listening.ts stop it. Compare two with `npx tsx bench/experiments/allocation-diff.ts`.
//
//   BENCH_AB_NODE_OPTIONS="--require $PWD/bench/experiments/sample-allocations.cjs" \
//     SAMPLE_ALLOCATIONS_FILE=/tmp/alloc SAMPLE_ALLOCATIONS_START_MS=4000 npx tsx bench/ab-cpu.ts <cli-a> <cli-b>
'use strict';
const { writeFileSync } = require('node:fs');
const { Session } = require('node:inspector');

const session = new Session();
session.connect();
setTimeout(
  () => {
    session.post('HeapProfiler.enable', () =>
      session.post('HeapProfiler.startSampling', {
        // Bytes between samples: fine enough for a few hundred bytes per request over a few thousand requests.
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      }),
    );
  },
  Number(process.env.SAMPLE_ALLOCATIONS_START_MS ?? 0),
).unref();

process.prependListener('SIGINT', () => {
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (!error)
      writeFileSync(
        `${process.env.SAMPLE_ALLOCATIONS_FILE}.${process.pid}.heapprofile`,
        JSON.stringify(result.profile),
      );
  });
});
