import { tool } from '@openai/agents';
import { z } from 'zod';
import { readFile, runTests } from './workspace.js';

/** The agent's tools, executed locally; their outputs are what fills the context window. */
export const tools = [
  tool({
    name: 'read_file',
    description: 'Reads a file of the repository and returns its text.',
    parameters: z.object({ path: z.string().describe('Path from the repository root') }),
    execute: async ({ path }) => readFile(path),
  }),
  tool({
    name: 'run_tests',
    description: 'Runs the tests whose names match a pattern and returns the log.',
    parameters: z.object({ pattern: z.string() }),
    execute: async ({ pattern }) => runTests(pattern),
  }),
];
