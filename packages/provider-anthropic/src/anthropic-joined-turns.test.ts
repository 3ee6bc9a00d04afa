import { compactionMetadataOf, type Message } from '@compaction/core';
import { groupTurns } from '@compaction/strategy-kit';
import { describe, expect, it } from 'vitest';
import type { AnthropicRequest } from './anthropic-request.js';
import { fromAnthropicRequest } from './from-anthropic-request.js';
import { toAnthropicRequest } from './to-anthropic-request.js';

/** Programmatic tool calling as documented: code execution calls a client tool twice, then finishes. */
const programmaticRequest: AnthropicRequest = {
  messages: [
    { role: 'user', content: 'Which region sold most last quarter?' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'I will query each region.' },
        {
          type: 'server_tool_use',
          id: 'srvtoolu_01',
          name: 'code_execution',
          input: { code: 'for r in regions: print(await query_database(r))' },
        },
        {
          type: 'tool_use',
          id: 'toolu_01',
          name: 'query_database',
          input: { sql: "SELECT sum(total) FROM sales WHERE region = 'west'" },
          caller: { type: 'code_execution_20260120', tool_id: 'srvtoolu_01' },
        },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '1200000' }] },
    {
      role: 'assistant',
      content: [
        {
          type: 'tool_use',
          id: 'toolu_02',
          name: 'query_database',
          input: { sql: "SELECT sum(total) FROM sales WHERE region = 'east'" },
          caller: { type: 'code_execution_20260120', tool_id: 'srvtoolu_01' },
        },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_02', content: '900000' }] },
    {
      role: 'assistant',
      content: [
        {
          type: 'code_execution_tool_result',
          tool_use_id: 'srvtoolu_01',
          content: {
            type: 'code_execution_result',
            stdout: 'west 1200000\neast 900000',
            stderr: '',
            return_code: 0,
            content: [],
          },
        },
        { type: 'text', text: 'The west region sold most.' },
      ],
    },
    { role: 'user', content: 'And the quarter before?' },
  ],
};

describe('turns the provider accepts only whole', () => {
  const messages = fromAnthropicRequest(programmaticRequest);

  it('marks the messages after the code execution opened, up to the result that closes it, as joining', () => {
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    expect(messages.map((message) => compactionMetadataOf(message)?.joinsPrevious === true)).toEqual([
      false,
      false,
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it('groups the whole programmatic span into one turn', () => {
    const turns = groupTurns(messages).map((turn) => [turn.start, turn.end]);
    expect(turns).toEqual([
      [0, 1],
      [1, 6],
      [6, 7],
    ]);
  });

  it('writes the request back exactly, without compaction marks', () => {
    const written = JSON.stringify(toAnthropicRequest(messages));
    expect(written).toBe(JSON.stringify(programmaticRequest));
    expect(written).not.toContain('joinsPrevious');
  });

  it('drops the span whole, leaving a valid request', () => {
    const [, span, last] = groupTurns(messages);
    const kept: Message[] = [...messages.slice(last!.start, last!.end)];
    expect(toAnthropicRequest(kept).messages).toEqual([{ role: 'user', content: 'And the quarter before?' }]);
    expect(span).toEqual({ start: 1, end: 6 });
  });

  it('joins a server tool result that comes in the turn after a pause to the turn that started it', () => {
    const paused: AnthropicRequest = {
      messages: [
        { role: 'user', content: 'Search the release notes.' },
        {
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_9', name: 'web_search', input: { query: 'notes' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_9', content: [] },
            { type: 'text', text: 'Nothing found.' },
          ],
        },
      ],
    };
    const converted = fromAnthropicRequest(paused);
    expect(compactionMetadataOf(converted[2]!)?.joinsPrevious).toBe(true);
    expect(groupTurns(converted).map((turn) => [turn.start, turn.end])).toEqual([
      [0, 1],
      [1, 3],
    ]);
    expect(JSON.stringify(toAnthropicRequest(converted))).toBe(JSON.stringify(paused));
  });
});
