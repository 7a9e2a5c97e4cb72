// A webhook server in its own process, for the kill -9 test: `webhook-server.fixture.ts <data_dir>`.
// Its runs never end, so a delivery it claims is still processing when the process is killed.
import { startWebhookHarness } from './webhook-harness.js';
import { CRASH_YAML } from './crash-config.js';

const harness = await startWebhookHarness(CRASH_YAML, {
  database: { dataDir: process.argv[2], drop: async () => undefined },
});
harness.runs.behaviour = (request) => {
  console.log(`run-started ${request.metadata.item_id}`);
  return new Promise(() => undefined);
};
await harness.worker.start();
console.log(`listening ${harness.url}`);
