import type { AnthropicRequest } from '../anthropic-request.js';

/** A request using every block type and field the converters must carry. */
export const richAnthropicRequest: AnthropicRequest = {
  system: [
    { type: 'text', text: 'You are a coding agent.' },
    { type: 'text', text: 'Project rules: keep tests green.', cache_control: { type: 'ephemeral' } },
  ],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Fix the failing test; the screenshot and spec are attached.' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        { type: 'image', source: { type: 'url', url: 'https://example.com/diagram.png' } },
        { type: 'image', source: { type: 'file', file_id: 'file_011' } },
        {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' },
          title: 'spec.pdf',
          citations: { enabled: true },
          cache_control: { type: 'ephemeral', ttl: '1h' },
        },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain notes' } },
        { type: 'document', source: { type: 'url', url: 'https://example.com/paper.pdf' } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should read the test first.', signature: 'EqQBCkYIBxgCKkD=' },
        {
          type: 'redacted_thinking',
          data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP',
        },
        { type: 'text', text: 'Reading the test.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'test/a.test.ts' } },
        {
          type: 'tool_use',
          id: 'toolu_2',
          name: 'bash',
          input: { command: 'npm test' },
          cache_control: { type: 'ephemeral' },
        },
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'vitest' } },
        {
          type: 'web_search_tool_result',
          tool_use_id: 'srvtoolu_1',
          content: [
            {
              type: 'web_search_result',
              url: 'https://vitest.dev',
              title: 'Vitest',
              encrypted_content: 'abc',
            },
          ],
        },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'expect(add(1, 1)).toBe(3)' },
        {
          type: 'tool_result',
          tool_use_id: 'toolu_2',
          is_error: true,
          content: [
            { type: 'text', text: 'FAIL test/a.test.ts' },
            { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
          ],
          cache_control: { type: 'ephemeral' },
        },
        { type: 'text', text: 'The test expects 3; is that right?' },
      ],
    },
    { role: 'user', content: 'Also, keep the old behaviour.' },
    { role: 'assistant', content: 'The test is wrong; 1 + 1 is 2.' },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_3', name: 'edit_file', input: { path: 'test/a.test.ts' } }],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_3' }] },
    { role: 'user', content: [{ type: 'text', text: 'Thanks.' }] },
  ],
};
