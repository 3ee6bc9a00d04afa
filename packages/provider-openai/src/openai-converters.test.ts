import { findMessageIssues, InvalidMessagesError, type Message } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { richChatMessages, richResponsesInput } from './__fixtures__/rich-openai-requests.js';
import { fromOpenAIChatMessages } from './from-openai-chat-messages.js';
import { fromOpenAIResponsesInput } from './from-openai-responses-input.js';
import { toOpenAIChatMessages } from './to-openai-chat-messages.js';
import { toOpenAIResponsesInput } from './to-openai-responses-input.js';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const call = (id: string): Message => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: 'read_file', input: { path: 'a' } }],
});
const result = (id: string): Message => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_file', output: 'x' }],
});

describe('Chat Completions converters', () => {
  const messages = fromOpenAIChatMessages(richChatMessages);

  it('give valid core messages and back the exact messages', () => {
    expect(findMessageIssues(messages)).toEqual([]);
    expect(toOpenAIChatMessages(messages)).toEqual(richChatMessages);
  });

  it('map developer messages to system messages that remember their role', () => {
    expect(messages[0]).toEqual({
      role: 'system',
      content: [{ type: 'text', text: 'Follow the repository rules.' }],
      metadata: { openai: { role: 'developer' } },
    });
  });

  it('parse tool arguments and keep the raw string when it is not canonical JSON', () => {
    const calls = messages[3]!.content.filter((part) => part.type === 'tool-call');
    expect(calls[0]).toEqual({
      type: 'tool-call',
      toolCallId: 'call_1',
      toolName: 'read_file',
      input: { path: 'src/a.ts' },
      metadata: { openai: { arguments: '{"path": "src/a.ts"}' } },
    });
    expect(calls[1]).toMatchObject({
      input: 'ls -la (not JSON)',
      metadata: { openai: { arguments: 'ls -la (not JSON)' } },
    });
    expect(calls[2]).toEqual({
      type: 'tool-call',
      toolCallId: 'call_3',
      toolName: 'search',
      input: { query: 'x' },
    });
  });

  it('name tool results after their calls', () => {
    expect(messages[4]!.content).toEqual([
      { type: 'tool-result', toolCallId: 'call_1', toolName: 'read_file', output: 'export const a = 1;' },
    ]);
  });

  it('remember the key order of a message written in another order, and write it back so', () => {
    // `tool_call_id` before `content`, as many clients write tool messages.
    expect(messages[4]!.metadata).toEqual({
      openai: { keyOrder: { keys: ['role', 'tool_call_id', 'content'] } },
    });
    expect(JSON.stringify(toOpenAIChatMessages(messages))).toBe(JSON.stringify(richChatMessages));
  });

  it('read the legacy function calling and write it back', () => {
    const legacy = [
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        function_call: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
      { role: 'function', name: 'get_weather', content: '{"celsius":21}' },
      { role: 'assistant', content: 'It is 21°C.' },
    ];
    const converted = fromOpenAIChatMessages(legacy);
    expect(converted[1]!.content).toEqual([
      {
        type: 'tool-call',
        toolCallId: 'function_call_1',
        toolName: 'get_weather',
        input: { city: 'Paris' },
        metadata: { openai: { legacy: true } },
      },
    ]);
    expect(converted[2]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'function_call_1',
          toolName: 'get_weather',
          output: '{"celsius":21}',
          metadata: { openai: { legacy: true } },
        },
      ],
    });
    expect(JSON.stringify(toOpenAIChatMessages(converted))).toBe(JSON.stringify(legacy));
    // A shortened result is still a function message, and a call left without its result is an error.
    const shortened = structuredClone(converted);
    (shortened[2]!.content[0] as { output: string }).output = '[removed]';
    expect(toOpenAIChatMessages(shortened)[2]).toEqual({
      role: 'function',
      name: 'get_weather',
      content: '[removed]',
    });
    expect(() => toOpenAIChatMessages([converted[0]!, converted[1]!, converted[3]!])).toThrow(
      /have no result before the next message/,
    );
  });

  it('keep refusals as marked text', () => {
    expect(messages[8]!.content).toEqual([
      { type: 'text', text: 'I cannot help with that.', metadata: { openai: { refusal: 'field' } } },
    ]);
  });

  it('send an edited input instead of the stale raw arguments', () => {
    const [first] = messages[3]!.content.filter((part) => part.type === 'tool-call');
    const edited: Message[] = [
      user('go'),
      { role: 'assistant', content: [{ ...first!, input: { path: 'src/b.ts' } }] },
    ];
    expect(toOpenAIChatMessages(edited)[1]).toMatchObject({
      tool_calls: [{ function: { arguments: '{"path":"src/b.ts"}' } }],
    });
  });

  it('write one tool message per result and drop reasoning', () => {
    const converted = toOpenAIChatMessages([
      user('go'),
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'hmm', signature: 's' },
          { type: 'tool-call', toolCallId: 'a', toolName: 'bash', input: {} },
          { type: 'tool-call', toolCallId: 'b', toolName: 'bash', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'a', toolName: 'bash', output: '1' },
          { type: 'tool-result', toolCallId: 'b', toolName: 'bash', output: '2', isError: true },
        ],
      },
    ]);
    expect(converted.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'bash', arguments: '{}' } },
          { id: 'b', type: 'function', function: { name: 'bash', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: '1' },
      { role: 'tool', tool_call_id: 'b', content: '2' },
    ]);
  });

  it('throw typed errors for orphaned results, unanswered calls and images in tool results', () => {
    expect(() => toOpenAIChatMessages([user('go'), result('nowhere')])).toThrow(InvalidMessagesError);
    expect(() => toOpenAIChatMessages([user('go'), call('c1'), user('?')])).toThrow(/have no result/);
    expect(toOpenAIChatMessages([user('go'), call('c1')])).toHaveLength(2);
    const image: Message = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'x',
          output: [{ type: 'image', image: 'https://e.x/a.png' }],
        },
      ],
    };
    expect(() => toOpenAIChatMessages([user('go'), call('c1'), image])).toThrow(/text only/);
  });

  it('reject what is not a Chat Completions message list', () => {
    for (const bad of [
      'x',
      [null],
      [{ role: 'function', content: 'x' }],
      [{ role: 'function', name: 'f', content: [{ type: 'text', text: 'x' }] }],
      [{ role: 'tool', content: 'x' }],
      [{ role: 'tool', tool_call_id: '', content: 'x' }],
      [{ role: 'user', content: 'x', when: new Date(0) }],
      [{ role: 'user', content: 3 }],
    ]) {
      expect(() => fromOpenAIChatMessages(bad as never)).toThrow(InvalidMessagesError);
    }
  });

  it('use the developer role for system messages when asked', () => {
    expect(
      toOpenAIChatMessages([{ role: 'system', content: [{ type: 'text', text: 's' }] }], {
        systemRole: 'developer',
      }),
    ).toEqual([{ role: 'developer', content: 's' }]);
  });
});

describe('Responses converters', () => {
  const messages = fromOpenAIResponsesInput(richResponsesInput);

  it('give valid core messages and back the exact input', () => {
    expect(findMessageIssues(messages)).toEqual([]);
    expect(JSON.stringify(toOpenAIResponsesInput(messages))).toBe(JSON.stringify(richResponsesInput));
  });

  it('group assistant-side items into one assistant message, in order', () => {
    const assistant = messages[3]!;
    expect(assistant.role).toBe('assistant');
    expect(assistant.content.map((part) => part.type)).toEqual([
      'reasoning',
      'text',
      'tool-call',
      'tool-call',
    ]);
    expect(assistant.content[0]).toEqual({
      type: 'reasoning',
      text: 'Read the file first.',
      redactedData: 'gAAAAABencrypted==',
      // The item had `id` second; it is written back there.
      metadata: {
        openai: {
          fields: { id: 'rs_1' },
          keyOrder: { keys: ['type', 'id', 'summary', 'encrypted_content'] },
        },
      },
    });
    expect(messages[4]).toMatchObject({
      role: 'tool',
      content: [
        { toolCallId: 'call_1', toolName: 'read_file' },
        { toolCallId: 'call_2', toolName: 'bash' },
      ],
    });
  });

  it('keeps a string input a string', () => {
    expect(fromOpenAIResponsesInput('Hello')).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hello' }], metadata: { openai: { input: 'string' } } },
    ]);
    expect(toOpenAIResponsesInput(fromOpenAIResponsesInput('Hello'))).toBe('Hello');
  });

  it('drops reasoning that did not come from OpenAI and throws on orphaned outputs', () => {
    const input = toOpenAIResponsesInput([
      user('go'),
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thinking', signature: 'anthropic-sig' },
          { type: 'text', text: 'ok' },
        ],
      },
    ]);
    expect(input).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'ok' },
    ]);
    expect(() => toOpenAIResponsesInput([user('go'), result('nowhere')])).toThrow(InvalidMessagesError);
    expect(() => toOpenAIResponsesInput([user('go'), call('c1'), user('?')])).toThrow(/have no output/);
  });

  it('rejects what is not a Responses input', () => {
    expect(() => fromOpenAIResponsesInput([{ role: 'robot', content: 'x' }])).toThrow(InvalidMessagesError);
    expect(() => fromOpenAIResponsesInput(3 as never)).toThrow(InvalidMessagesError);
  });
});
