import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Spawned servers and CLIs run dist/, and the dashboard tests serve dist/ui: built here once when stale.
    globalSetup: ['test/support/ensure-built.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One module graph per worker, not per file: importing src/ again for each of ~250 files took most of the run
    // (1,274 s -> 798 s on a busy machine). Tests start their own apps and databases, so no state is shared.
    isolate: false,
    // Two cores: two test files at a time keeps servers started by tests responsive.
    maxWorkers: 2,
  },
});
