import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The end-to-end tests run the built binary; the setup builds it when the sources are newer.
    globalSetup: ['./src/__fixtures__/build-binary.ts'],
    testTimeout: 30_000,
  },
});
