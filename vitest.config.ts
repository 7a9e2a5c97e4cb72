import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The dashboard tests serve dist/ui: built here once when ui/ changed since the last build.
    globalSetup: ['test/dashboard/ensure-ui-built.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: two test files at a time keeps servers started by tests responsive.
    maxWorkers: 2,
  },
});
