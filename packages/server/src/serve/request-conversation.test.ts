import type { Message } from '@compaction/core';
import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import {
  conversationJson,
  parseServedFormat,
  readAppendedMessages,
  readRequestConversation,
  shapeOf,
} from './request-conversation.js';

const earlier: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: { city: 'Paris' } }],
  },
];

// Not on the Node 22 compatibility run: reading a request conversation is plain code, with no module of the
// runtime (the Node 20 run has run it).
describeOnFullRun('request conversations', () => {
  it('names a tool result whose call came in an earlier append, in every provider format', async () => {
    const results = {
      'openai-chat': [{ role: 'tool', tool_call_id: 'call_1', content: '18°C' }],
      anthropic: [
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '18°C' }] },
      ],
      'openai-responses': [{ type: 'function_call_output', call_id: 'call_1', output: '18°C' }],
    } as const;
    for (const [format, list] of Object.entries(results)) {
      const [message] = await readAppendedMessages(list, format as keyof typeof results, earlier);
      expect(message, format).toMatchObject({
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'get_weather', output: '18°C' }],
      });
    }
    // A result whose call is nowhere keeps the converter's empty name, for the Compactor's repair to judge.
    const [orphan] = await readAppendedMessages(
      [{ role: 'tool', tool_call_id: 'gone', content: 'x' }],
      'openai-chat',
      earlier,
    );
    expect(orphan).toMatchObject({ content: [{ toolName: '' }] });
  });

  it('answers in the shape the conversation came in, or the format’s plain shape', async () => {
    const request = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] };
    const conversation = await readRequestConversation(request, undefined);
    expect(conversation.format).toBe('openai-chat');
    expect(await conversationJson(conversation.messages, 'openai-chat', shapeOf(conversation))).toEqual(
      request,
    );
    expect(await conversationJson(conversation.messages, 'openai-chat', undefined)).toEqual(request.messages);
    // An empty session of a format: the shape a conversion to it writes.
    expect(await conversationJson([], 'anthropic', undefined)).toEqual({ messages: [] });
    expect(await conversationJson([], 'openai-responses', undefined)).toEqual({ input: [] });
    expect(await conversationJson([], 'core', undefined)).toEqual([]);
  });

  it('names the field of what it cannot read', async () => {
    await expect(readRequestConversation([{ role: 'robot', content: [] }], undefined)).rejects.toThrow(
      /^conversation: not a valid core conversation: messages\[0\]\.role: unknown role "robot"/,
    );
    await expect(readAppendedMessages([{ role: 'robot' }], 'core', [])).rejects.toThrow(
      /^messages: not a valid core/,
    );
    expect(() => parseServedFormat('yaml')).toThrow(
      'format must be one of core, anthropic, openai-chat, openai-responses, got "yaml"',
    );
  });
});
