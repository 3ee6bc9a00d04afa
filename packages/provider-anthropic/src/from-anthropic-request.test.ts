import {
  compactionMetadataOf,
  findMessageIssues,
  InvalidMessagesError,
  latestUserMessageIndex,
  type Message,
  openingIndexes,
} from '@compaction/core';
import { oddlyChanged } from '@compaction/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicRequestArbitrary } from './__fixtures__/anthropic-request-arbitrary.js';
import { richAnthropicRequest } from './__fixtures__/rich-anthropic-request.js';
import { fromAnthropicRequest } from './from-anthropic-request.js';
import { toAnthropicRequest } from './to-anthropic-request.js';

describe('fromAnthropicRequest', () => {
  const messages = fromAnthropicRequest(richAnthropicRequest);

  it('gives valid core messages', () => {
    expect(findMessageIssues(messages)).toEqual([]);
  });

  it('converts back to the exact request', () => {
    expect(toAnthropicRequest(messages)).toEqual(richAnthropicRequest);
  });

  it('makes the system blocks one system message and keeps cache_control in metadata', () => {
    expect(messages[0]).toEqual({
      role: 'system',
      content: [
        { type: 'text', text: 'You are a coding agent.' },
        {
          type: 'text',
          text: 'Project rules: keep tests green.',
          metadata: { anthropic: { cache_control: { type: 'ephemeral' } } },
        },
      ],
    });
  });

  it('maps images and documents to image and file parts', () => {
    const user = messages[1]!;
    expect(user.role).toBe('user');
    expect(user.content.slice(1, 3)).toEqual([
      { type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png' },
      { type: 'image', image: 'https://example.com/diagram.png' },
    ]);
    expect(user.content[3]).toMatchObject({
      type: 'text',
      metadata: { anthropic: { block: { type: 'image', source: { type: 'file', file_id: 'file_011' } } } },
    });
    expect(user.content[4]).toEqual({
      type: 'file',
      data: 'JVBERi0xLjQ=',
      mediaType: 'application/pdf',
      metadata: {
        anthropic: {
          title: 'spec.pdf',
          citations: { enabled: true },
          cache_control: { type: 'ephemeral', ttl: '1h' },
        },
      },
    });
    expect(user.content[5]).toEqual({ type: 'file', data: 'plain notes', mediaType: 'text/plain' });
  });

  it('maps thinking and redacted thinking to reasoning parts with their signatures', () => {
    const assistant = messages[2]!;
    expect(assistant.content.slice(0, 2)).toEqual([
      { type: 'reasoning', text: 'I should read the test first.', signature: 'EqQBCkYIBxgCKkD=' },
      {
        type: 'reasoning',
        text: '',
        redactedData: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP',
      },
    ]);
    expect(assistant.content[3]).toEqual({
      type: 'tool-call',
      toolCallId: 'toolu_1',
      toolName: 'read_file',
      input: { path: 'test/a.test.ts' },
    });
  });

  it('splits tool results out of the user turn into a tool message, in order', () => {
    expect({ role: messages[3]!.role, content: messages[3]!.content }).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'toolu_1',
          toolName: 'read_file',
          output: 'expect(add(1, 1)).toBe(3)',
        },
        {
          type: 'tool-result',
          toolCallId: 'toolu_2',
          toolName: 'bash',
          isError: true,
          output: [
            { type: 'text', text: 'FAIL test/a.test.ts' },
            { type: 'image', image: '/9j/4AAQ', mediaType: 'image/jpeg' },
          ],
          metadata: { anthropic: { cache_control: { type: 'ephemeral' } } },
        },
      ],
    });
    expect(messages[4]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'The test expects 3; is that right?' }],
    });
  });

  it('marks string content and turns that followed a turn of the same role', () => {
    expect(messages[5]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Also, keep the old behaviour.' }],
      metadata: { anthropic: { content: 'string', newTurn: true } },
    });
    expect(messages[7]?.metadata).toEqual({ anthropic: { newTurn: true } });
  });

  it('rejects what is not a Messages request with a typed error', () => {
    const bad = [
      {},
      { messages: 'hi' },
      { messages: [{ role: 'tool', content: 'x' }] },
      { messages: [{ role: 'user', content: 3 }] },
      { messages: [{ role: 'user', content: [null] }] },
      { system: 4, messages: [] },
      { messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: ['x'] }] }] },
    ];
    for (const request of bad) {
      expect(() => fromAnthropicRequest(request as never)).toThrow(InvalidMessagesError);
    }
  });

  it('records the key order of a message written in another order than its own', () => {
    // `is_error` before `content`: written back in that order, so the request serializes the same.
    expect(messages[3]!.metadata).toEqual({
      anthropic: {
        keyOrder: {
          children: {
            content: {
              children: { '1': { keys: ['type', 'tool_use_id', 'is_error', 'content', 'cache_control'] } },
            },
          },
        },
      },
    });
    expect(JSON.stringify(toAnthropicRequest(messages))).toBe(JSON.stringify(richAnthropicRequest));
  });

  it('reads tool results written tool_use_id first (as Claude Code does) and writes them back so', () => {
    const request = {
      messages: [
        { role: 'user' as const, content: 'list the files' },
        {
          role: 'assistant' as const,
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }],
        },
        {
          content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content: 'a.ts', is_error: false }],
          role: 'user' as const,
        },
      ],
    };
    const converted = fromAnthropicRequest(request);
    expect(converted[2]).toMatchObject({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'toolu_1', toolName: 'Bash', output: 'a.ts', isError: false },
      ],
    });
    expect(JSON.stringify(toAnthropicRequest(converted))).toBe(JSON.stringify(request));
  });

  it('reads a system message between turns and writes it back in its place', () => {
    const request = {
      system: 'You are a coding agent.',
      messages: [
        { role: 'user' as const, content: 'Fix the test.' },
        { role: 'assistant' as const, content: 'Done.' },
        {
          role: 'system' as const,
          content: [{ type: 'text' as const, text: 'The user is on a phone now.' }],
        },
        { role: 'user' as const, content: 'Thanks!' },
      ],
    };
    const converted = fromAnthropicRequest(request);
    expect(converted.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'system',
      'user',
    ]);
    expect(converted[3]).toEqual({
      role: 'system',
      content: [{ type: 'text', text: 'The user is on a phone now.' }],
      metadata: { anthropic: { role: 'system' } },
    });
    expect(JSON.stringify(toAnthropicRequest(converted))).toBe(JSON.stringify(request));
  });

  it('keeps fields of a message other than role and content', () => {
    const request = { messages: [{ role: 'user' as const, content: 'hi', id: 'msg_1' }] };
    const converted = fromAnthropicRequest(request);
    expect(converted[0]?.metadata).toEqual({ anthropic: { content: 'string', fields: { id: 'msg_1' } } });
    expect(JSON.stringify(toAnthropicRequest(converted))).toBe(JSON.stringify(request));
  });

  it('keeps blocks core cannot hold as they came: unsigned thinking, documents from the assistant', () => {
    const request = {
      messages: [
        { role: 'user' as const, content: 'go' },
        {
          role: 'assistant' as const,
          content: [
            { type: 'thinking', thinking: 'no signature' },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' } },
            { type: 'tool_use', id: 'toolu_1', name: 'bash', input: 'not an object' },
          ],
        },
      ],
    };
    const converted = fromAnthropicRequest(request);
    expect(converted[1]?.content.map((part) => part.type)).toEqual(['text', 'text', 'tool-call']);
    expect(JSON.stringify(toAnthropicRequest(converted))).toBe(JSON.stringify(request));
  });

  it('never throws anything but a typed error, whatever it is given', () => {
    const convertOrRefuse = (input: unknown) => {
      try {
        const converted = fromAnthropicRequest(input as never);
        expect(findMessageIssues(converted)).toEqual([]);
      } catch (error) {
        expect(InvalidMessagesError.isInstance(error)).toBe(true);
      }
    };
    fc.assert(
      fc.property(fc.anything({ maxDepth: 4 }), (messages) => {
        for (const input of [messages, { messages }, { messages: [messages] }]) convertOrRefuse(input);
      }),
    );
    fc.assert(fc.property(oddlyChanged(anthropicRequestArbitrary()), convertOrRefuse), { numRuns: 500 });
  });

  it('reads a removal note an earlier compaction left as a message of its own, and writes it back joined', () => {
    const note = '[6 earlier messages skipped to fit the context window.]';
    const request = {
      messages: [
        { role: 'user', content: 'Fix the failing test.' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '1 failing' },
            { type: 'text', text: note, cache_control: { type: 'ephemeral' } },
            { type: 'text', text: 'Also update the changelog.' },
          ],
        },
      ],
    };
    const converted = fromAnthropicRequest(request);
    expect(converted.slice(2).map((message) => [message.role, message.content.length])).toEqual([
      ['tool', 1],
      ['user', 1],
      ['user', 1],
    ]);
    // Core reads the note as a marker, so the newest user request is the user's own words alone.
    expect(compactionMetadataOf(converted[3]!)).toEqual({ kind: 'marker', removedMessages: 6 });
    expect(converted[latestUserMessageIndex(converted)]!.content).toEqual([
      { type: 'text', text: 'Also update the changelog.' },
    ]);
    expect(JSON.stringify(toAnthropicRequest(converted))).toBe(JSON.stringify(request));
  });

  it('reads a summary an earlier compaction joined to the task as a message of its own, the task whole', () => {
    const summary = '[Summary of 12 earlier messages, compaction round 1; the task is above.]\n\n## Progress';
    const request = {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Fix the failing test.', cache_control: { type: 'ephemeral' } },
            { type: 'text', text: summary },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }] },
      ],
    };
    const converted = fromAnthropicRequest(request);
    expect(converted.map((message) => message.content.length)).toEqual([1, 1, 1]);
    expect(compactionMetadataOf(converted[1]!)?.kind).toBe('summary');
    expect(openingIndexes(converted)).toEqual([0]);
    expect(JSON.stringify(toAnthropicRequest(converted))).toBe(JSON.stringify(request));
  });

  it('keeps an empty request empty', () => {
    const empty: Message[] = fromAnthropicRequest({ messages: [] });
    expect(empty).toEqual([]);
    expect(toAnthropicRequest(empty)).toEqual({ messages: [] });
  });
});
