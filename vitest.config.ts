import { defineConfig } from 'vitest/config';

// Each test file runs in a fresh forked process with its own Z3 (WebAssembly),
// started once and reused by the file's tests: after many thousands of checks
// Z3's heap was seen corrupted ("corrupted its heap memory area"), and with a
// process shared by many files one file's crash sank the others.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/grammar-bundle.ts'],
    pool: 'forks',
    isolate: true,
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
