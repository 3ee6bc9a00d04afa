import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One fast-check seed per test file, from FC_SEED when set, as in every package of the workspace.
    setupFiles: ['../config/fast-check-setup.ts'],
  },
});
