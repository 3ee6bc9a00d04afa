import type { AnthropicContentBlock, AnthropicRequest } from '@compaction/provider-anthropic';

const files = [
  'src/parser.ts',
  'src/lexer.ts',
  'src/render.ts',
  'test/parser.test.ts',
  'README.md',
  'package.json',
];

/** A file's text: long enough that its tool result is worth shortening, the same in every runtime. */
function fileText(path: string, turn: number): string {
  const lines: string[] = [];
  for (let line = 1; line <= 60; line++) {
    lines.push(
      `// ${path}:${line} (read ${turn}) export const value${line} = compute(${line * turn}, "é ✓ 字");`,
    );
  }
  return lines.join('\n');
}

/** One turn of the agent: a thought, a tool call, its result, and what it concluded. */
function turn(index: number): AnthropicRequest['messages'] {
  const path = files[index % files.length]!;
  const id = `toolu_${String(index).padStart(4, '0')}`;
  const reading = index % 3 !== 2;
  const call: AnthropicContentBlock = reading
    ? { type: 'tool_use', id, name: 'read_file', input: { path } }
    : { type: 'tool_use', id, name: 'bash', input: { command: `npm test -- ${path}` } };
  const output = reading ? fileText(path, index) : `FAIL ${path}\nExpected 3, received ${index}\nexit code 1`;
  return [
    { role: 'assistant', content: [{ type: 'text', text: `Step ${index}: looking at ${path}.` }, call] },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: output, is_error: !reading }],
    },
  ];
}

/**
 * A coding agent's session as an Anthropic Messages request: a system prompt, the task, 24 tool-using turns
 * (files read, tests run and failing) and a new request. Built by code rather than read from a file, so every
 * runtime gets it without a file system.
 */
export function codingSession(): AnthropicRequest {
  const messages: AnthropicRequest['messages'] = [
    { role: 'user', content: 'Fix the parser so that `npm test` passes; keep the public API unchanged.' },
  ];
  for (let index = 1; index <= 24; index++) messages.push(...turn(index));
  messages.push(
    { role: 'assistant', content: [{ type: 'text', text: 'The parser now handles nested groups.' }] },
    { role: 'user', content: 'Now update the README with an example of nested groups.' },
  );
  return { system: 'You are a careful coding agent working in a TypeScript repository.', messages };
}
