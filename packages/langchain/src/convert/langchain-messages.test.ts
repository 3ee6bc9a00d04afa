import { findMessageIssues, InvalidMessagesError, type Message } from '@compaction/core';
import { conversationArbitrary, oddlyChanged } from '@compaction/testing';
import { AIMessage, ChatMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldsOf, langChainMessagesArbitrary } from '../__fixtures__/langchain-message-arbitrary.js';
import { fromLangChain, toLangChain } from './langchain-messages.js';

const runs = { numRuns: 300 };

/** Core messages with each tool message split into one per result, as LangChain writes them. */
function oneResultPerMessage(messages: readonly Message[]): Message[] {
  return messages
    .flatMap((message) =>
      message.role === 'tool' && message.content.length > 1
        ? message.content.map((result, index) => ({
            ...message,
            ...(index === 0 || message.id === undefined ? {} : { id: undefined }),
            content: [result],
          }))
        : [message],
    )
    .map((message) => (message.id === undefined ? withoutId(message) : message));
}

function withoutId(message: Message): Message {
  const { id: _id, ...rest } = message;
  return rest as Message;
}

describe('LangChain messages', () => {
  it('LangChain -> core -> LangChain gives every field of every message back', () => {
    fc.assert(
      fc.property(langChainMessagesArbitrary(), (messages) => {
        const before = messages.map(fieldsOf);
        const back = toLangChain(fromLangChain(messages));
        expect(back.map(fieldsOf)).toStrictEqual(messages.map(fieldsOf));
        // The input is not changed.
        expect(messages.map(fieldsOf)).toStrictEqual(before);
      }),
      runs,
    );
  });

  it('core -> LangChain -> core is the identity on generated conversations, a tool message per result', () => {
    fc.assert(
      fc.property(conversationArbitrary({ maxSteps: 12 }), (messages) => {
        expect(fromLangChain(toLangChain(messages))).toStrictEqual(oneResultPerMessage(messages));
      }),
      runs,
    );
  });

  it('reads tool calls once, where the provider put them, and names results by their call', () => {
    const call = { type: 'tool_call' as const, id: 'toolu_1', name: 'read_file', args: { path: 'a.ts' } };
    const messages = fromLangChain([
      new HumanMessage('Read a.ts'),
      new AIMessage({
        content: [
          { type: 'thinking', thinking: 'I should read it.', signature: 'sig' },
          { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } },
        ],
        tool_calls: [call],
      }),
      new ToolMessage({ content: 'export const a = 1;', tool_call_id: 'toolu_1' }),
    ]);
    expect(messages[1]!.content.map((part) => part.type)).toEqual(['reasoning', 'tool-call']);
    expect(messages[1]!.content[0]).toMatchObject({ text: 'I should read it.', signature: 'sig' });
    expect(messages[2]!.content[0]).toMatchObject({ toolCallId: 'toolu_1', toolName: 'read_file' });
    expect(findMessageIssues(messages)).toEqual([]);
  });

  it('converts odd input to core messages or refuses it with a typed error, never a crash', () => {
    const messageLikes = langChainMessagesArbitrary().map((messages) =>
      messages.map((message) => {
        const { type, ...fields } = fieldsOf(message);
        return { ...fields, role: type };
      }),
    );
    fc.assert(
      fc.property(oddlyChanged(messageLikes), (messages) => {
        try {
          const converted = fromLangChain(messages as never);
          for (const message of converted) {
            expect(['system', 'user', 'assistant', 'tool']).toContain(message.role);
            expect(Array.isArray(message.content)).toBe(true);
          }
        } catch (error) {
          expect(InvalidMessagesError.isInstance(error), String(error)).toBe(true);
        }
      }),
      runs,
    );
  });

  it('refuses a message kind core has no place for, and a tool call without an id, with a typed error', () => {
    expect(() => fromLangChain([new ChatMessage('hi', 'critic')])).toThrow(InvalidMessagesError);
    const noId = new AIMessage({ content: '', tool_calls: [{ name: 'bash', args: {} }] });
    expect(() => fromLangChain([new HumanMessage('a'), noId])).toThrow(/messages\[1\]\.tool_calls\[0\]/);
  });
});
