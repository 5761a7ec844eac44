import { defineConfig } from 'vitest/config';

// Z3 (WebAssembly) is started once per worker process and reused: forks, no isolation.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
