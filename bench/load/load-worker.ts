// The load generator's own process: it takes jobs over IPC from bench/run.ts, one at a time, so that
// the CPU it burns is never charged to the process under test or to the bench's bookkeeping.
import { runFanoutLoad } from './fanout-load.js';
import { runHttpLoad } from './http-load.js';
import type { LoadJob } from './load-jobs.js';
import { runStreamLoad } from './stream-load.js';

interface JobMessage {
  id: number;
  job: LoadJob;
}

function run(job: LoadJob): Promise<unknown> {
  switch (job.kind) {
    case 'http':
      return runHttpLoad(job);
    case 'stream':
      return runStreamLoad(job);
    case 'fanout':
      return runFanoutLoad(job);
    default: {
      const unknown: never = job;
      return Promise.reject(new Error(`unknown job ${JSON.stringify(unknown)}`));
    }
  }
}

process.on('message', (message: JobMessage) => {
  run(message.job).then(
    (result) => process.send?.({ id: message.id, result }),
    (error: Error) => process.send?.({ id: message.id, error: error.stack ?? error.message }),
  );
});
// The bench holds the other end of the channel: if it dies, this process must not linger.
process.on('disconnect', () => process.exit(0));
