import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One fast-check seed per test file, from FC_SEED when set; a failing property prints how to replay it.
    setupFiles: ['../../config/fast-check-setup.ts'],
    // The test files share one module graph (the setup still runs before each file): each file importing and
    // transforming the SDKs and the packages again was a third of the run. No test here changes shared state
    // without restoring it.
    isolate: false,
  },
});
