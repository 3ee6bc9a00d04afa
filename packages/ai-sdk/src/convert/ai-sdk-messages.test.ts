import {
  findMessageIssues,
  InvalidMessagesError,
  type Message,
  withCompactionMetadata,
} from '@compaction/core';
import { conversationArbitrary, oddlyChanged } from '@compaction/testing';
import type { ModelMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aiSdkMessageArbitrary } from '../__fixtures__/ai-sdk-message-arbitrary.js';
import { coreMessagesArbitrary } from '../__fixtures__/core-message-arbitrary.js';
import { freezeMessages } from '../__fixtures__/freeze-messages.js';
import type { LanguageModelPrompt } from '../ai-sdk-types.js';
import { fromAiSdk, fromLanguageModelPrompt, toAiSdk, toLanguageModelPrompt } from './ai-sdk-messages.js';

const runs = { numRuns: 300 };

describe('model messages', () => {
  it('core -> AI SDK -> core is the identity on generated conversations', () => {
    fc.assert(
      fc.property(conversationArbitrary({ maxSteps: 12 }), (messages) => {
        expect(fromAiSdk(toAiSdk(messages))).toStrictEqual(messages);
      }),
      runs,
    );
  });

  it('core -> AI SDK -> core is the identity with ids, metadata, images and files', () => {
    fc.assert(
      fc.property(coreMessagesArbitrary(), (messages) => {
        expect(fromAiSdk(toAiSdk(messages))).toStrictEqual(messages);
      }),
      runs,
    );
  });

  it('AI SDK -> core -> AI SDK is the identity on every part kind', () => {
    fc.assert(
      fc.property(fc.array(aiSdkMessageArbitrary('model'), { maxLength: 5 }), (generated) => {
        const messages = freezeMessages(generated) as unknown as ModelMessage[];
        expect(toAiSdk(fromAiSdk(messages))).toStrictEqual(messages);
      }),
      runs,
    );
  });

  it('AI SDK -> core -> AI SDK survives a JSON round trip of the core messages', () => {
    fc.assert(
      fc.property(fc.array(aiSdkMessageArbitrary('model'), { maxLength: 5 }), (generated) => {
        const messages = generated as unknown as ModelMessage[];
        const stored = JSON.parse(JSON.stringify(fromAiSdk(messages))) as Message[];
        expect(toAiSdk(stored)).toStrictEqual(messages);
      }),
      runs,
    );
  });
});

describe('odd input', () => {
  it('converts to valid core messages or refuses with a typed error, never a crash', () => {
    for (const [flavor, convert] of [
      ['model', fromAiSdk],
      ['prompt', fromLanguageModelPrompt],
    ] as const) {
      fc.assert(
        fc.property(oddlyChanged(fc.array(aiSdkMessageArbitrary(flavor), { maxLength: 5 })), (messages) => {
          try {
            const converted = convert(messages as never);
            expect(findMessageIssues(converted)).toEqual([]);
          } catch (error) {
            expect(InvalidMessagesError.isInstance(error)).toBe(true);
          }
        }),
        runs,
      );
    }
  });
});

describe('provider-level prompt', () => {
  it('core -> prompt -> core is the identity', () => {
    fc.assert(
      fc.property(fc.oneof(conversationArbitrary({ maxSteps: 12 }), coreMessagesArbitrary()), (messages) => {
        expect(fromLanguageModelPrompt(toLanguageModelPrompt(messages))).toStrictEqual(messages);
      }),
      runs,
    );
  });

  it('prompt -> core -> prompt is the identity', () => {
    fc.assert(
      fc.property(fc.array(aiSdkMessageArbitrary('prompt'), { maxLength: 5 }), (generated) => {
        const prompt = freezeMessages(generated) as unknown as LanguageModelPrompt;
        expect(toLanguageModelPrompt(fromLanguageModelPrompt(prompt))).toStrictEqual(prompt);
      }),
      runs,
    );
  });
});

describe('what is converted how', () => {
  it('maps tool outputs to core text and keeps their kind in metadata', () => {
    const [message] = fromAiSdk([
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 'f',
            output: { type: 'json', value: { ok: true } },
          },
          {
            type: 'tool-result',
            toolCallId: 'b',
            toolName: 'f',
            output: { type: 'error-text', value: 'boom' },
          },
          { type: 'tool-result', toolCallId: 'c', toolName: 'f', output: { type: 'execution-denied' } },
        ],
      },
    ]);
    expect(message).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'a',
          toolName: 'f',
          output: '{"ok":true}',
          metadata: { aiSdk: { output: 'json' } },
        },
        { type: 'tool-result', toolCallId: 'b', toolName: 'f', output: 'boom', isError: true },
        {
          type: 'tool-result',
          toolCallId: 'c',
          toolName: 'f',
          output: '[The tool call was denied.]',
          isError: true,
          metadata: { aiSdk: { output: 'execution-denied', reason: false } },
        },
      ],
    });
  });

  it('sends JSON output shortened by a strategy as text', () => {
    const [message] = fromAiSdk([
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 'f',
            output: { type: 'json', value: { big: 'x'.repeat(50) } },
          },
        ],
      },
    ]);
    const part = message!.content[0] as Extract<Message['content'][number], { type: 'tool-result' }>;
    const shortened = { ...message!, content: [{ ...part, output: '{"big":"xxx… [truncated]' }] } as Message;
    expect(toAiSdk([shortened])[0]!.content).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'a',
        toolName: 'f',
        output: { type: 'text', value: '{"big":"xxx… [truncated]' },
      },
    ]);
  });

  it('carries bytes as base64 with a marker and restores the same type', () => {
    const bytes = new Uint8Array([1, 2, 3, 250]);
    const [message] = fromAiSdk([
      { role: 'user', content: [{ type: 'image', image: bytes, mediaType: 'image/png' }] },
    ]);
    expect(message!.content[0]).toEqual({
      type: 'image',
      image: 'AQID+g==',
      mediaType: 'image/png',
      metadata: { aiSdk: { data: 'bytes' } },
    });
    const back = toAiSdk([message!])[0]!.content as Array<{ image: unknown }>;
    expect(back[0]!.image).toBeInstanceOf(Uint8Array);
    expect(back[0]!.image).toEqual(bytes);
  });

  it('keeps compaction marks and ids under providerOptions.compaction, where no provider looks', () => {
    const summary = withCompactionMetadata(
      { role: 'user', id: 's1', content: [{ type: 'text', text: 'Summary of earlier work' }] },
      { kind: 'summary', round: 1, strategy: 'summarization' },
    );
    expect(toAiSdk([summary])).toEqual([
      {
        role: 'user',
        content: [{ type: 'text', text: 'Summary of earlier work' }],
        providerOptions: {
          compaction: {
            id: 's1',
            metadata: { compaction: { kind: 'summary', round: 1, strategy: 'summarization' } },
          },
        },
      },
    ]);
  });

  it('keeps tool approvals and provider-executed tools out of the core content, in place', () => {
    const messages: ModelMessage[] = [
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Searching' },
          {
            type: 'tool-call',
            toolCallId: 'ws',
            toolName: 'web_search',
            input: { q: 'x' },
            providerExecuted: true,
          },
          {
            type: 'tool-result',
            toolCallId: 'ws',
            toolName: 'web_search',
            output: { type: 'json', value: [] },
          },
          { type: 'tool-call', toolCallId: 'rm', toolName: 'delete', input: {} },
          { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'rm' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'ap1', approved: false }] },
    ];
    const core = fromAiSdk(messages);
    expect(core[0]!.content.map((part) => part.type)).toEqual(['text', 'tool-call']);
    expect(core[1]!.content).toEqual([]);
    expect(toAiSdk(core)).toEqual(messages);
  });

  it('rejects malformed messages with a typed error naming the place', () => {
    const malformed = [
      { role: 'robot', content: 'beep' },
      { role: 'user', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'b', input: {} }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'b', input: () => 1 }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'a', toolName: 'b', output: { type: 'html' } }],
      },
      { role: 'user', content: [{ type: 'image', image: 42 }] },
      { role: 'user', content: [{ type: 'image', image: new Uint8Array() }] },
      { role: 'system', content: [{ type: 'text', text: 'x' }] },
      null,
    ];
    for (const message of malformed) {
      let thrown: unknown;
      try {
        fromAiSdk([{ role: 'user', content: 'fine' }, message as ModelMessage]);
      } catch (error) {
        thrown = error;
      }
      expect(InvalidMessagesError.isInstance(thrown), JSON.stringify(message)).toBe(true);
      expect((thrown as InvalidMessagesError).issues[0]!.index).toBe(1);
    }
  });
});

describe('data a strategy rewrote', () => {
  it('is sent as the string it became when it no longer parses as bytes or a URL', () => {
    const [message] = fromAiSdk([
      {
        role: 'user',
        content: [{ type: 'file', data: new URL('https://example.com/a.pdf'), mediaType: 'application/pdf' }],
      },
    ]);
    const part = message!.content[0] as Extract<Message['content'][number], { type: 'file' }>;
    const rewritten = { ...message!, content: [{ ...part, data: '[file removed]' }] } as Message;
    expect(toAiSdk([rewritten])[0]!.content).toEqual([
      { type: 'file', data: '[file removed]', mediaType: 'application/pdf' },
    ]);
  });
});
