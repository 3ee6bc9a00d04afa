import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The end-to-end tests run the built binary; the setup builds it when the sources are newer. The tests'
    // temporary folders are made inside one folder per run, removed when the run ends.
    globalSetup: ['./src/__fixtures__/build-binary.ts', './src/__fixtures__/temporary-root.ts'],
    // One fast-check seed per test file, from FC_SEED when set; a failing property prints how to replay it.
    setupFiles: ['../../config/fast-check-setup.ts'],
    testTimeout: 30_000,
    // Two test files at a time (Vitest's default on two cores is one): much of this suite waits on the
    // processes and servers it starts, and it runs last in CI, after every other package's tests.
    maxWorkers: 2,
    // On the Node 22 compatibility run (scripts/test-node-22.sh) whole files register no test, the sweeps and
    // load runs that ran on Node 20; a file with none fails the Node 20 run still.
    passWithNoTests: process.env.COMPACTION_COMPATIBILITY_RUN !== undefined,
  },
});
