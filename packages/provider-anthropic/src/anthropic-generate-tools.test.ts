import { InvalidMessagesError, type Message } from '@compaction/core';
import { anthropicMessagesViolations } from '@compaction/testing';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from './anthropic-provider.js';
import { fromAnthropicRequest } from './from-anthropic-request.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  server.handle('/v1/messages', () => ({
    body: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-5-5',
      content: [{ type: 'text', text: '## Summary\nDone.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    },
  }));
});

const agentTools = [
  { name: 'bash', description: 'Runs a command.', input_schema: { type: 'object' } },
  { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
];

const provider = (settings: Parameters<typeof createAnthropicProvider>[0] = {}) =>
  createAnthropicProvider({
    apiKey: 'test-key',
    baseURL: server.url,
    maxRetries: 0,
    timeout: 2000,
    ...settings,
  });

const ask = {
  role: 'user',
  content: [{ type: 'text', text: 'Summarize the work so far.' }],
} satisfies Message;

/** An agent's conversation as the Messages API holds it, read into core messages. */
const read = (messages: unknown[]): Message[] =>
  fromAnthropicRequest({ messages } as Parameters<typeof fromAnthropicRequest>[0]);

const clientToolConversation = read([
  { role: 'user', content: 'Run the tests.' },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'The tests first.', signature: 'EqQBCkYIAxgC' },
      { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'npm test' } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '1 failed' }] },
]);

const serverToolConversation = read([
  { role: 'user', content: 'What changed in the release?' },
  {
    role: 'assistant',
    content: [
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'release notes' } },
      {
        type: 'web_search_tool_result',
        tool_use_id: 'srvtoolu_1',
        content: [
          {
            type: 'web_search_result',
            url: 'https://example.com/releases',
            title: 'Release notes',
            encrypted_content: 'EqQBCkYIAxgC',
            page_age: null,
          },
        ],
      },
      { type: 'text', text: 'The release fixed the parser.' },
    ],
  },
]);

const connectorConversation = read([
  { role: 'user', content: 'Search the docs.' },
  {
    role: 'assistant',
    content: [
      { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'search', server_name: 'docs', input: { query: 'x' } },
      { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', content: 'found' },
      { type: 'text', text: 'Found it.' },
    ],
  },
]);

type Body = Record<string, unknown>;

describe('generate with a conversation that holds tool blocks', () => {
  it.each([
    ['client tool calls and results', clientToolConversation],
    ['server tool calls and results', serverToolConversation],
  ])(
    "sends %s with the agent's tools and tool_choice none, a request the API accepts",
    async (_, messages) => {
      const result = await provider({ tools: agentTools }).generate({ messages: [...messages, ask] });
      expect(result.text).toBe('## Summary\nDone.');
      expect(server.requests).toHaveLength(1);
      const body = server.requests[0]!.body as Body;
      expect(body.tools).toEqual(agentTools);
      expect(body.tool_choice).toEqual({ type: 'none' });
      // Thinking blocks of earlier turns go as they are with thinking off: only a final assistant turn may not.
      expect(anthropicMessagesViolations(body)).toEqual([]);
    },
  );

  it("sends the agent's own tool_choice when given, and none at all for null", async () => {
    await provider({ tools: agentTools, toolChoice: { type: 'auto' } }).generate({
      messages: [...clientToolConversation, ask],
    });
    await provider({ tools: agentTools, toolChoice: null }).generate({
      messages: [...clientToolConversation, ask],
    });
    const [explicit, omitted] = server.requests.map((request) => request.body as Body);
    expect(explicit!.tool_choice).toEqual({ type: 'auto' });
    expect(omitted).not.toHaveProperty('tool_choice');
    expect(omitted!.tools).toEqual(agentTools);
  });

  it('throws InvalidMessagesError and sends nothing when no tools are configured', async () => {
    for (const messages of [clientToolConversation, serverToolConversation]) {
      const error = await provider()
        .generate({ messages: [...messages, ask] })
        .catch((caught: unknown) => caught);
      expect(InvalidMessagesError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain("the provider's `tools` setting");
    }
    expect(server.requests).toHaveLength(0);
  });

  it('throws InvalidMessagesError and sends nothing for MCP connector blocks, even with tools', async () => {
    const error = await provider({ tools: agentTools })
      .generate({ messages: [...connectorConversation, ask] })
      .catch((caught: unknown) => caught);
    expect(InvalidMessagesError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('mcp_tool_use');
    expect(server.requests).toHaveLength(0);
  });

  it('sends no tools for a conversation without tool blocks', async () => {
    await provider({ tools: agentTools }).generate({ messages: [ask] });
    const body = server.requests[0]!.body as Body;
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
  });
});
