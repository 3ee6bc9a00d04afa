import type { AssistantMessage, Part } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assistantParts,
  type ClaudeCodeContentBlock,
  partToBlock,
  toolResultPart,
  updatedBlock,
  userParts,
} from './claude-code-blocks.js';

const assistantPart = fc.oneof(
  fc.record({ type: fc.constant('text' as const), text: fc.string() }),
  fc.record(
    { type: fc.constant('reasoning' as const), text: fc.string(), signature: fc.string({ minLength: 1 }) },
    { requiredKeys: ['type', 'text'] },
  ),
  fc.record({
    type: fc.constant('tool-call' as const),
    toolCallId: fc.string(),
    toolName: fc.string(),
    input: fc.dictionary(fc.string(), fc.string()),
  }),
);

describe('Claude Code blocks', () => {
  it('reads back the assistant parts it writes', () => {
    fc.assert(
      fc.property(assistantPart, (part) => {
        const parts = assistantParts(partToBlock(part as Part), new Map());
        expect(parts).toEqual([part]);
      }),
    );
  });

  it('names a tool result after the call it answers, and keeps its error flag', () => {
    const toolNames = new Map<string, string>();
    assistantParts({ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a.ts' } }, toolNames);
    const result = toolResultPart(
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: [{ type: 'text', text: 'no such file' }],
        is_error: true,
      },
      toolNames,
    );
    expect(result).toEqual({
      type: 'tool-result',
      toolCallId: 'toolu_1',
      toolName: 'Read',
      output: [{ type: 'text', text: 'no such file' }],
      isError: true,
    });
    expect(
      toolResultPart({ type: 'tool_result', tool_use_id: 'toolu_2', content: 'ok' }, toolNames).toolName,
    ).toBe('tool');
  });

  it('gives no part for blocks core has none for', () => {
    const serverCall: ClaudeCodeContentBlock = {
      type: 'server_tool_use',
      id: 'srvtoolu_1',
      name: 'web_search',
    };
    expect(assistantParts(serverCall, new Map())).toEqual([]);
    expect(userParts({ type: 'image', source: { type: 'base64', media_type: 'image/png' } })).toEqual([]);
  });

  it('keeps the fields of a block it updates and drops an error flag the part lost', () => {
    const original: ClaudeCodeContentBlock = {
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: 'long output',
      is_error: true,
      cache_control: { type: 'ephemeral' },
    };
    const part: Part = { type: 'tool-result', toolCallId: 'toolu_1', toolName: 'Read', output: 'short' };
    const updated = updatedBlock(original, part);
    expect(updated).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: 'short',
      cache_control: { type: 'ephemeral' },
    });
    expect(original.is_error).toBe(true);
  });

  it('writes redacted thinking back as a redacted block', () => {
    const part: AssistantMessage['content'][number] = { type: 'reasoning', text: '', redactedData: 'abc' };
    expect(partToBlock(part)).toEqual({ type: 'redacted_thinking', data: 'abc' });
    expect(assistantParts(partToBlock(part), new Map())).toEqual([part]);
  });
});
