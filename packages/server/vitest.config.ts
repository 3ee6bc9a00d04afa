import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The compaction threads run the built worker; the setup builds `dist/` when the sources are newer. The
    // tests' temporary folders are made inside one folder per run, removed when the run ends.
    globalSetup: ['./src/__fixtures__/build-package.ts', './src/__fixtures__/temporary-root.ts'],
    // One fast-check seed per test file, from FC_SEED when set; a failing property prints how to replay it.
    setupFiles: ['../../config/fast-check-setup.ts'],
    testTimeout: 30_000,
    // On the Node 22 compatibility run (scripts/test-node-22.sh) whole files register no test, the sweeps that
    // ran on Node 20; a file with none fails the Node 20 run still.
    passWithNoTests: process.env.COMPACTION_COMPATIBILITY_RUN !== undefined,
  },
});
