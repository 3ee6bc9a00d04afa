import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One fast-check seed per test file, from FC_SEED when set; a failing property prints how to replay it.
    setupFiles: ['../../config/fast-check-setup.ts'],
    // The test files share one module graph (the setup still runs before each file); no test here changes
    // shared state.
    isolate: false,
  },
});
