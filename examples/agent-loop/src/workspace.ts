/**
 * A made-up repository the agent works on. Its tools run locally, online and offline alike, and answer
 * with large outputs (whole files, full test logs): the kind of output that fills an agent's context.
 */

/** The files the agent can read. */
export const files = [
  'src/date-parser.ts',
  'src/date-format.ts',
  'src/time-zones.ts',
  'src/calendar.ts',
  'src/locale-data.ts',
  'src/duration.ts',
  'src/index.ts',
  'test/date-parser.test.ts',
  'test/time-zones.test.ts',
  'test/calendar.test.ts',
];

/** The content of a file: deterministic, about 2,000 tokens. */
export function readFile(path: string): string {
  if (!files.includes(path)) throw new Error(`no such file: ${path}`);
  const name = path
    .replace(/^.*\//, '')
    .replace(/\..*$/, '')
    .replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
  const lines = [`// ${path}`, `import { assertValid } from './validation.js';`, ''];
  for (let index = 1; index <= 45; index++) {
    lines.push(
      `export function ${name}Step${index}(input: string, offset = ${index * 3}): number {`,
      `  return assertValid(input.length + offset * ${index}, '${path}:${index}') % ${97 + index};`,
      '}',
    );
  }
  return lines.join('\n');
}

/** The output of the test suite: one failing test among many passing ones, about 2,500 tokens. */
export function runTests(run: number): string {
  const lines = [`$ npm test   # run ${run}`, ''];
  for (let index = 1; index <= 80; index++) {
    const failing = index === 42 && run < 3;
    lines.push(
      `${failing ? 'FAIL' : ' ok '} test/date-parser.test.ts > parses case ${index} (${(index * 1.7).toFixed(1)} ms)`,
    );
  }
  if (run < 3) {
    lines.push(
      '',
      'AssertionError: expected 2024-02-29 to equal 2024-03-01',
      '  at test/date-parser.test.ts:42:17',
    );
  }
  lines.push('', run < 3 ? 'Tests: 1 failed, 79 passed' : 'Tests: 80 passed');
  return lines.join('\n');
}

/** A tool the agent may call, described once and shaped for each SDK by its script. */
export interface WorkspaceTool {
  name: string;
  description: string;
  /** The JSON Schema of the tool's input. */
  parameters: { type: 'object'; properties: Record<string, unknown>; required?: string[] };
}

/** The tools {@link runWorkspaceTool} runs. */
export const workspaceTools: WorkspaceTool[] = [
  {
    name: 'read_file',
    description: 'Reads a file of the repository.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  { name: 'run_tests', description: 'Runs the test suite.', parameters: { type: 'object', properties: {} } },
];

/** Runs a tool by name; an unknown tool or file is an error the model sees. */
export function runWorkspaceTool(name: string, input: unknown, testRuns: { count: number }): string {
  const record = (input ?? {}) as Record<string, unknown>;
  if (name === 'read_file') return readFile(String(record.path));
  if (name === 'run_tests') return runTests(++testRuns.count);
  throw new Error(`unknown tool: ${name}`);
}

/** The task given to the agent. */
export const task =
  'The date parser test fails on leap days. Read the relevant files (all of src/ and test/ may matter), run ' +
  'the tests, and explain the fix. Use the tools; read files one at a time.';
