import { tool } from 'ai';
import { z } from 'zod';
import { readFile, runTests } from './workspace.js';

/** The agent's tools, executed locally; their outputs are what fills the context window. */
export const tools = {
  read_file: tool({
    description: 'Reads a file of the repository and returns its text.',
    inputSchema: z.object({ path: z.string().describe('Path from the repository root') }),
    execute: async ({ path }) => readFile(path),
  }),
  run_tests: tool({
    description: 'Runs the tests whose names match a pattern and returns the log.',
    inputSchema: z.object({ pattern: z.string() }),
    execute: async ({ pattern }) => runTests(pattern),
  }),
};
