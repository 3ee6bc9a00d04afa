import { describe, expect, it } from 'vitest';
import { anthropicRequest, anthropicToolLoopRequest } from '../__fixtures__/provider-contract-requests.js';
import { anthropicMessagesViolations } from './anthropic-messages-violations.js';

// biome-ignore lint/suspicious/noExplicitAny: tests reach into plain JSON requests to break them.
type Request = any;

/** Each case takes a valid request and breaks exactly one rule. */
const cases: Array<{ rule: string; valid: () => Request; breaks: (request: Request) => void }> = [
  {
    rule: 'anthropic.request-shape',
    valid: anthropicRequest,
    breaks: (request) => request.messages[1].content.push({ text: 'a block without a type' }),
  },
  {
    rule: 'anthropic.non-empty-content',
    valid: anthropicRequest,
    breaks: (request) => request.messages[3].content.push({ type: 'text', text: '' }),
  },
  {
    rule: 'anthropic.first-message-user',
    valid: anthropicRequest,
    breaks: (request) => request.messages.unshift({ role: 'assistant', content: 'Hello, how can I help?' }),
  },
  {
    rule: 'anthropic.compaction-block-first',
    valid: anthropicRequest,
    breaks: (request) => request.messages[3].content.unshift(compactionBlock()),
  },
  {
    rule: 'anthropic.tools-defined',
    valid: anthropicRequest,
    breaks: (request) => delete request.tools,
  },
  {
    rule: 'anthropic.tool-use-answered',
    valid: anthropicRequest,
    breaks: (request) =>
      request.messages[1].content.push({
        type: 'tool_use',
        id: 'toolu_2',
        name: 'bash',
        input: { command: 'ls' },
      }),
  },
  {
    rule: 'anthropic.tool-results-first',
    valid: anthropicRequest,
    breaks: (request) => request.messages[2].content.unshift({ type: 'text', text: 'Here are the results:' }),
  },
  {
    rule: 'anthropic.tool-result-has-call',
    valid: anthropicRequest,
    breaks: (request) =>
      request.messages[2].content.push({ type: 'tool_result', tool_use_id: 'toolu_dropped', content: 'ok' }),
  },
  {
    rule: 'anthropic.unique-ids',
    valid: anthropicRequest,
    breaks: (request) =>
      request.messages[2].content.push({ type: 'tool_result', tool_use_id: 'toolu_1', content: 'again' }),
  },
  {
    rule: 'anthropic.server-tool-result-has-call',
    valid: anthropicRequest,
    breaks: (request) =>
      request.messages[3].content.unshift({
        type: 'web_search_tool_result',
        tool_use_id: 'srvtoolu_dropped',
        content: [],
      }),
  },
  {
    rule: 'anthropic.server-tool-use-answered',
    valid: anthropicRequest,
    breaks: (request) =>
      request.messages[3].content.push({
        type: 'server_tool_use',
        id: 'srvtoolu_1',
        name: 'web_search',
        input: {},
      }),
  },
  {
    rule: 'anthropic.mcp-tool-result-has-call',
    valid: anthropicRequest,
    breaks: (request) =>
      request.messages[3].content.unshift({
        type: 'mcp_tool_result',
        tool_use_id: 'mcptoolu_dropped',
        content: 'x',
      }),
  },
  {
    rule: 'anthropic.mcp-tool-use-answered',
    valid: anthropicRequest,
    breaks: (request) =>
      request.messages[3].content.push({
        type: 'mcp_tool_use',
        id: 'mcptoolu_1',
        name: 'search_docs',
        server_name: 'docs',
        input: {},
      }),
  },
  {
    rule: 'anthropic.caller-refers-to-server-tool',
    valid: anthropicRequest,
    breaks: (request) => {
      request.messages[1].content[1].caller = {
        type: 'code_execution_20260120',
        tool_id: 'srvtoolu_dropped',
      };
    },
  },
  {
    rule: 'anthropic.thinking-first',
    valid: anthropicRequest,
    breaks: (request) =>
      request.messages[3].content.push({ type: 'thinking', thinking: 'Hmm.', signature: 'sig-1' }),
  },
  {
    rule: 'anthropic.tool-loop-thinking',
    valid: anthropicToolLoopRequest,
    breaks: (request) => request.messages[3].content.shift(),
  },
  {
    rule: 'anthropic.thinking-disabled-final',
    valid: () => {
      const request = anthropicRequest();
      (request.messages as Request[]).push({
        role: 'assistant',
        content: [{ type: 'text', text: 'The fix is' }],
      });
      return request;
    },
    breaks: (request) =>
      request.messages[5].content.unshift({ type: 'thinking', thinking: 'Prefill.', signature: 'sig-1' }),
  },
  {
    rule: 'anthropic.cache-breakpoints',
    valid: () => {
      const request = anthropicRequest();
      const ephemeral = { type: 'ephemeral' };
      request.cache_control = ephemeral;
      request.system = [{ type: 'text', text: 'You are a coding agent.', cache_control: ephemeral }];
      (request.tools as Request[])[0].cache_control = ephemeral;
      (request.messages as Request[])[2].content[0].cache_control = ephemeral;
      return request;
    },
    breaks: (request) => {
      request.messages[3].content[0].cache_control = { type: 'ephemeral', ttl: '1h' };
    },
  },
];

/** A compaction block as a threshold compaction returns it. */
function compactionBlock() {
  return {
    type: 'compaction',
    content: 'Summary: the user asked to fix a test.',
    encrypted_content: 'opaque',
  };
}

describe('anthropicMessagesViolations', () => {
  it('accepts a conversation sent from its compaction block on, though it opens with the assistant', () => {
    const request: Request = anthropicRequest();
    request.messages.splice(0, 3);
    request.messages[0].content.unshift(compactionBlock());
    expect(anthropicMessagesViolations(request)).toEqual([]);
    request.messages.unshift({ role: 'user', content: 'Fix the failing test.' });
    expect(anthropicMessagesViolations(request).map((violation) => violation.rule)).toEqual([
      'anthropic.compaction-block-first',
    ]);
  });

  for (const { rule, valid, breaks } of cases) {
    it(`reports ${rule} and only it`, () => {
      const request = valid();
      expect(anthropicMessagesViolations(request)).toEqual([]);
      breaks(request);
      const violations = anthropicMessagesViolations(request);
      expect(violations.length).toBeGreaterThan(0);
      expect(new Set(violations.map((violation) => violation.rule))).toEqual(new Set([rule]));
    });
  }

  it('reads consecutive messages of one role as one turn, as the API combines them', () => {
    const request: Request = anthropicToolLoopRequest();
    // A removal marker merged ahead of the loop's assistant message makes the turn start with text.
    request.messages.splice(3, 0, { role: 'assistant', content: '[3 earlier messages removed]' });
    expect(anthropicMessagesViolations(request).map((violation) => violation.rule)).toEqual([
      'anthropic.thinking-first',
      'anthropic.tool-loop-thinking',
    ]);
    const split: Request = anthropicRequest();
    // Results and text in two user messages read as one turn that opens with the results.
    split.messages.splice(3, 0, { role: 'user', content: 'And keep the logs.' });
    split.messages.splice(4, 0, { role: 'assistant', content: 'Noted.' });
    expect(anthropicMessagesViolations(split)).toEqual([]);
  });

  it('lets a server tool call stay open while code execution waits for client results', () => {
    const request: Request = anthropicRequest();
    request.messages[1].content.splice(1, 0, {
      type: 'server_tool_use',
      id: 'srvtoolu_1',
      name: 'code_execution',
      input: { code: 'run()' },
    });
    request.messages[1].content[2].caller = { type: 'code_execution_20260120', tool_id: 'srvtoolu_1' };
    expect(anthropicMessagesViolations(request).map((violation) => violation.rule)).toEqual([
      'anthropic.server-tool-use-answered',
    ]);
    request.messages[3].content.unshift({
      type: 'code_execution_tool_result',
      tool_use_id: 'srvtoolu_1',
      content: { type: 'code_execution_result', stdout: 'ok', stderr: '', return_code: 0, content: [] },
    });
    expect(anthropicMessagesViolations(request)).toEqual([]);
  });

  it('refuses whitespace-only text only where the message has nothing else to say', () => {
    const request: Request = anthropicRequest();
    request.messages[3].content.push({ type: 'text', text: '  \n' });
    expect(anthropicMessagesViolations(request)).toEqual([]);
    request.messages[3].content = [{ type: 'text', text: '  \n' }];
    expect(anthropicMessagesViolations(request).map((violation) => violation.rule)).toEqual([
      'anthropic.non-empty-content',
    ]);
  });

  it('passes unknown block types and reports malformed requests without throwing', () => {
    const request: Request = anthropicRequest();
    request.messages[3].content.push({ type: 'hologram', data: 'from a later API version' });
    expect(anthropicMessagesViolations(request)).toEqual([]);
    for (const malformed of [null, 'text', [], { messages: 'x' }, { messages: [null] }, { messages: [] }]) {
      const violations = anthropicMessagesViolations(malformed);
      expect(violations.map((violation) => violation.rule)).toContain('anthropic.request-shape');
    }
  });

  it('points at where the rule breaks', () => {
    const request: Request = anthropicRequest();
    request.messages[2].content[0].tool_use_id = 'toolu_other';
    expect(anthropicMessagesViolations(request)).toEqual([
      {
        rule: 'anthropic.tool-use-answered',
        path: 'messages[1].content[1]',
        message: 'tool_use toolu_1 has no tool_result in the turn right after it',
      },
      {
        rule: 'anthropic.tool-result-has-call',
        path: 'messages[2].content[0]',
        message: 'tool_result toolu_other answers no tool_use of the assistant turn right before it',
      },
    ]);
  });
});
