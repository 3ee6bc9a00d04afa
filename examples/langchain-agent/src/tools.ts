import { tool } from 'langchain';
import { z } from 'zod';
import { readFile, runTests } from './workspace.js';

/** The agent's tools, executed locally; their outputs are what fills the context window. */
export const tools = [
  tool(async ({ path }: { path: string }) => readFile(path), {
    name: 'read_file',
    description: 'Reads a file of the repository and returns its text.',
    schema: z.object({ path: z.string().describe('Path from the repository root') }),
  }),
  tool(async ({ pattern }: { pattern: string }) => runTests(pattern), {
    name: 'run_tests',
    description: 'Runs the tests whose names match a pattern and returns the log.',
    schema: z.object({ pattern: z.string() }),
  }),
];
