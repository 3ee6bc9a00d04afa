import { createAnthropic } from '@ai-sdk/anthropic';
import { type CompactionStrategy, latestUserMessageIndex, type Message } from '@compaction/core';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { freezeMessages } from '../__fixtures__/freeze-messages.js';
import { fromAiSdk, toAiSdk } from '../convert/ai-sdk-messages.js';
import { compactionMiddleware } from './compaction-middleware.js';
import { compactionPrepareStep } from './compaction-prepare-step.js';
import { signedReasoningFirst } from './signed-reasoning-first.js';

const signed = (text: string, signature: string) => ({
  type: 'reasoning' as const,
  text,
  providerOptions: { anthropic: { signature } },
});

/**
 * A conversation with Claude, thinking on: the first answer had no thinking, the second did. Dropping the
 * user's reply between them leaves two assistant messages side by side.
 */
const conversation: ModelMessage[] = [
  { role: 'user', content: 'Fix the bug.' },
  { role: 'assistant', content: [{ type: 'text', text: 'Which one?' }] },
  { role: 'user', content: 'The flaky test.' },
  {
    role: 'assistant',
    content: [
      signed('It times out under load.', 'EqQBCkYIBxgC'),
      { type: 'text', text: 'Raising the timeout.' },
      {
        type: 'reasoning',
        text: '',
        providerOptions: { anthropic: { redactedData: 'EmwKAhgBEgy3va3p' } },
      },
    ],
  },
  { role: 'user', content: 'Go on.' },
];

/** Drops every user message between two assistant messages, except the newest request. */
const dropAnswers: CompactionStrategy = {
  specificationVersion: 'v1',
  name: 'drop-answers',
  async compact({ messages }) {
    const newest = latestUserMessageIndex(messages);
    return {
      messages: messages.filter(
        (message, index) =>
          !(
            message.role === 'user' &&
            index !== newest &&
            messages[index - 1]?.role === 'assistant' &&
            messages[index + 1]?.role === 'assistant'
          ),
      ),
    };
  },
};

const budget = { contextWindow: 100_000, trigger: 20, target: 10 };

/** The part of a Messages API request body these tests read. */
interface RecordedBody {
  messages: Array<{ role: string; content: Array<{ type: string }> | string }>;
}

/** An Anthropic provider whose requests are recorded and answered with one short message. */
function recordingAnthropic() {
  const bodies: RecordedBody[] = [];
  const provider = createAnthropic({
    apiKey: 'test-key',
    fetch: async (_url, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      return new Response(
        JSON.stringify({
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: 'Done.' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 40, output_tokens: 2 },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    },
  });
  return { model: provider('claude-sonnet-4-5'), bodies };
}

const thinking = { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } };

/** The Messages API rule: an assistant turn with thinking opens with it. */
function expectThinkingFirst(body: RecordedBody) {
  for (const message of body.messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    const types = message.content.map((block) => block.type);
    if (types.some((type) => type === 'thinking' || type === 'redacted_thinking')) {
      expect(['thinking', 'redacted_thinking']).toContain(types[0]);
    }
  }
}

describe('signed reasoning after compaction, sent through @ai-sdk/anthropic', () => {
  // The Compactor's verification refuses a result with an assistant message right before one that opens with
  // reasoning (rule `reasoning-first`), so such a strategy falls back to the history as it was; the
  // integration's own reordering (`signedReasoningFirst`, tested below) stays as a second guard.
  it('compactionPrepareStep never hands Anthropic a merged turn that opens with text', async () => {
    const { model, bodies } = recordingAnthropic();
    await generateText({
      model,
      messages: freezeMessages(conversation) as ModelMessage[],
      providerOptions: thinking,
      maxRetries: 0,
      prepareStep: compactionPrepareStep({ strategy: dropAnswers, budget }),
    });
    expect(bodies).toHaveLength(1);
    expect(bodies[0]!.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expectThinkingFirst(bodies[0]!);
  });

  it('compactionMiddleware does the same inside the model', async () => {
    const { model, bodies } = recordingAnthropic();
    await generateText({
      model: wrapLanguageModel({
        model,
        middleware: compactionMiddleware({ strategy: dropAnswers, budget }),
      }),
      messages: freezeMessages(conversation) as ModelMessage[],
      providerOptions: thinking,
      maxRetries: 0,
    });
    expect(bodies).toHaveLength(1);
    expect(bodies[0]!.messages).toHaveLength(5);
    expectThinkingFirst(bodies[0]!);
  });

  it('leaves what needs no change alone: other reasoning, runs that open with thinking, lone messages', () => {
    const messages = fromAiSdk(conversation);
    expect(signedReasoningFirst(messages)).toEqual(messages);
    expect(signedReasoningFirst(messages).every((message, index) => message === messages[index])).toBe(true);
    const openai: ModelMessage[] = [
      { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
      {
        role: 'assistant',
        content: [{ type: 'reasoning', text: 'r', providerOptions: { openai: { itemId: 'rs_1' } } }],
      },
    ];
    expect(signedReasoningFirst(fromAiSdk(openai))).toEqual(fromAiSdk(openai));
    const opensWithThinking: Message[] = fromAiSdk([conversation[3]!, conversation[1]!, conversation[3]!]);
    expect(signedReasoningFirst(opensWithThinking)).toEqual(opensWithThinking);
  });

  it('moves the thinking of a run to its front and drops a message left empty', () => {
    const run = fromAiSdk([
      conversation[1]!,
      { role: 'assistant', content: [signed('only thinking', 'sig')] },
      conversation[3]!,
    ]);
    expect(toAiSdk(signedReasoningFirst(run))).toEqual([
      {
        role: 'assistant',
        content: [
          signed('only thinking', 'sig'),
          ...(conversation[3]!.content as unknown[]).filter(
            (part) => (part as { type: string }).type === 'reasoning',
          ),
          { type: 'text', text: 'Which one?' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Raising the timeout.' }] },
    ]);
  });
});
