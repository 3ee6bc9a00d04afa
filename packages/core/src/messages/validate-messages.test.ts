import { describe, expect, it } from 'vitest';
import { conversation } from '../__fixtures__/messages.js';
import { InvalidMessagesError } from '../errors/invalid-messages-error.js';
import { findMessageIssues, validateMessages } from './validate-messages.js';

describe('validateMessages', () => {
  it('accepts a well-formed conversation, including special-token strings in text', () => {
    const messages = [
      ...conversation(2),
      { role: 'user', content: [{ type: 'text', text: '<|endoftext|><|im_start|>' }] },
    ];
    expect(() => validateMessages(messages)).not.toThrow();
  });

  it('reports unknown roles, foreign parts, non-JSON inputs and missing content with their paths', () => {
    const issues = findMessageIssues([
      { role: 'robot', content: [] },
      { role: 'system', content: [{ type: 'image', image: 'x' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'bash', input: () => 1 }],
      },
      { role: 'user' },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: '', toolName: 'bash', output: 3 }] },
    ]);
    expect(issues.map((issue) => `${issue.index}:${issue.path}`)).toEqual([
      '0:role',
      '1:content[0].type',
      '2:content[0].input',
      '3:content',
      '4:content[0].toolCallId',
      '4:content[0].output',
    ]);
  });

  it('checks a message object once: later lists containing it skip it', () => {
    const message = { role: 'user', content: [{ type: 'text', text: 'hello' }] };
    expect(findMessageIssues([message])).toEqual([]);
    // Messages are immutable by contract; a checked object is trusted from then on.
    (message.content[0] as { text: unknown }).text = 42;
    expect(findMessageIssues([message])).toEqual([]);
    expect(findMessageIssues([{ ...message }])).toHaveLength(1);
  });

  it('throws a typed error for a list that is not an array', () => {
    expect(() => validateMessages({ messages: [] })).toThrow(InvalidMessagesError);
  });
});
