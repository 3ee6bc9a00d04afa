import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One fast-check seed per test file, from FC_SEED when set; a failing property prints how to replay it.
    setupFiles: ['../config/fast-check-setup.ts'],
    // One registry and one publish for every scenario.
    globalSetup: ['./src/global-setup.ts'],
    // The scenarios install with npm and pnpm, which are the work: one file at a time keeps them off each
    // other's caches and leaves the other core to the rest of the suite.
    fileParallelism: false,
  },
});
