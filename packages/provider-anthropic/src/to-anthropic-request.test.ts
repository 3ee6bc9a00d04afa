import { InvalidMessagesError, type Message } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { fromAnthropicRequest } from './from-anthropic-request.js';
import { defaultFirstUserText, toAnthropicRequest } from './to-anthropic-request.js';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });
const call = (id: string): Message => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: 'bash', input: { command: 'ls' } }],
});
const result = (id: string): Message => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: 'bash', output: 'a.ts' }],
});

describe('toAnthropicRequest', () => {
  it('puts tool results and the following user text in one user turn', () => {
    expect(toAnthropicRequest([user('list'), call('t1'), result('t1'), user('and now?')]).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'list' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'ls' } }],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'a.ts' },
          { type: 'text', text: 'and now?' },
        ],
      },
    ]);
  });

  it('merges consecutive same-role messages left next to each other by compaction', () => {
    const request = toAnthropicRequest([user('a'), user('b'), assistant('c'), assistant('d')]);
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'c' },
          { type: 'text', text: 'd' },
        ],
      },
    ]);
  });

  it('adds a user turn before a conversation that starts with the assistant, or throws when asked to', () => {
    const messages: Message[] = [
      { role: 'system', content: [{ type: 'text', text: 'sys' }] },
      assistant('hi'),
    ];
    expect(toAnthropicRequest(messages)).toEqual({
      system: [{ type: 'text', text: 'sys' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: defaultFirstUserText }] },
        { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
      ],
    });
    expect(toAnthropicRequest(messages, { firstUserText: 'Continue.' }).messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Continue.' }],
    });
    expect(() => toAnthropicRequest(messages, { firstUserText: false })).toThrow(InvalidMessagesError);
  });

  it('throws a typed error for a tool result whose call is not in the turn before it', () => {
    expect(() => toAnthropicRequest([user('go'), result('t9')])).toThrow(InvalidMessagesError);
    expect(() =>
      toAnthropicRequest([user('go'), call('t1'), result('t1'), assistant('x'), result('t1')]),
    ).toThrow(/does not answer a tool_use/);
  });

  it('throws a typed error for a call left without result before the next assistant turn', () => {
    expect(() => toAnthropicRequest([user('go'), call('t1'), user('?'), assistant('x')])).toThrow(
      /have no tool_result/,
    );
  });

  it('accepts calls still waiting for results at the end', () => {
    expect(toAnthropicRequest([user('go'), call('t1')]).messages).toHaveLength(2);
  });

  it('drops reasoning without a signature and a turn left empty by it', () => {
    const messages: Message[] = [
      user('go'),
      { role: 'assistant', content: [{ type: 'reasoning', text: 'from another provider' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'signed', signature: 's' },
          { type: 'text', text: 'ok' },
        ],
      },
    ];
    expect(toAnthropicRequest(messages).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'signed', signature: 's' },
          { type: 'text', text: 'ok' },
        ],
      },
    ]);
  });

  it('opens an assistant turn merged from several messages with their thinking', () => {
    const thinking: Message = {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'check the test', signature: 'sig' },
        { type: 'text', text: 'Running it.' },
        { type: 'tool-call', toolCallId: 't1', toolName: 'bash', input: { command: 'npm test' } },
        { type: 'reasoning', text: '', redactedData: 'cmVkYWN0ZWQ=' },
      ],
    };
    expect(toAnthropicRequest([user('go'), assistant('Sure.'), thinking]).messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'check the test', signature: 'sig' },
        { type: 'redacted_thinking', data: 'cmVkYWN0ZWQ=' },
        { type: 'text', text: 'Sure.' },
        { type: 'text', text: 'Running it.' },
        { type: 'tool_use', id: 't1', name: 'bash', input: { command: 'npm test' } },
      ],
    });
    // One message is written as it is, thinking wherever it stands.
    const single: Message = { role: 'assistant', content: [thinking.content[1]!, thinking.content[0]!] };
    expect(toAnthropicRequest([user('go'), single]).messages[1]?.content).toEqual([
      { type: 'text', text: 'Running it.' },
      { type: 'thinking', thinking: 'check the test', signature: 'sig' },
    ]);
  });

  it('keeps a request valid when compaction leaves a thinking turn right after an assistant turn', () => {
    const request = {
      messages: [
        { role: 'user' as const, content: 'Fix the bug.' },
        { role: 'assistant' as const, content: [{ type: 'text', text: 'Which one?' }] },
        { role: 'user' as const, content: 'The flaky test.' },
        {
          role: 'assistant' as const,
          content: [
            { type: 'thinking', thinking: 'It times out.', signature: 'EqQB' },
            { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'npm test' } },
          ],
        },
      ],
    };
    const messages = fromAnthropicRequest(request);
    // A strategy dropped the user's answer (not the newest request): two assistant turns now meet.
    const compacted = [messages[0]!, messages[1]!, messages[3]!];
    expect(toAnthropicRequest(compacted).messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'It times out.', signature: 'EqQB' },
      { type: 'text', text: 'Which one?' },
      { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'npm test' } },
    ]);
  });

  it('writes a system message that stood in messages back there, and a later one of its own as user text', () => {
    const inMessages: Message = {
      role: 'system',
      content: [{ type: 'text', text: 'Be brief.' }],
      metadata: { anthropic: { role: 'system' } },
    };
    const summary: Message = { role: 'system', content: [{ type: 'text', text: 'Summary: c' }] };
    expect(toAnthropicRequest([inMessages, user('a'), assistant('b'), inMessages, summary])).toEqual({
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', content: [{ type: 'text', text: 'a' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'b' }] },
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Summary: c' }] },
      ],
    });
    // The first user turn still comes before the assistant when compaction removed it.
    expect(toAnthropicRequest([inMessages, assistant('b')]).messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
    ]);
  });

  it('rejects tool inputs that are not objects and files in assistant messages', () => {
    const badInput: Message = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 't', toolName: 'bash', input: 'ls -la' }],
    };
    expect(() => toAnthropicRequest([user('go'), badInput])).toThrow(InvalidMessagesError);
    const file: Message = {
      role: 'assistant',
      content: [{ type: 'file', data: 'x', mediaType: 'text/plain' }],
    };
    expect(() => toAnthropicRequest([user('go'), file])).toThrow(/cannot carry files/);
  });

  it('turns a system message in the middle of the conversation into user text', () => {
    const messages: Message[] = [
      user('a'),
      assistant('b'),
      { role: 'system', content: [{ type: 'text', text: 'Summary: c' }] },
    ];
    expect(toAnthropicRequest(messages).messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Summary: c' }],
    });
  });

  it('sends data URLs as base64 and URLs as url sources', () => {
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'image', image: 'data:image/gif;base64,R0lGOD==' },
          { type: 'image', image: 'https://example.com/a.png' },
          { type: 'file', data: 'https://example.com/a.pdf', mediaType: 'application/pdf' },
        ],
      },
    ];
    expect(toAnthropicRequest(messages).messages[0]?.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: 'R0lGOD==' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
      { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
    ]);
  });

  it('does not mutate its input', () => {
    const messages = [user('go'), call('t1'), result('t1')];
    const copy = structuredClone(messages);
    toAnthropicRequest(messages);
    expect(messages).toEqual(copy);
  });
});
