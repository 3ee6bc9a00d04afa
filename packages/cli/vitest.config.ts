import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The end-to-end tests run the built binary; the setup builds it when the sources are newer.
    globalSetup: ['./src/__fixtures__/build-binary.ts'],
    // One fast-check seed per test file, from FC_SEED when set; a failing property prints how to replay it.
    setupFiles: ['../../config/fast-check-setup.ts'],
    testTimeout: 30_000,
  },
});
