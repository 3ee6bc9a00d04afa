import {
  BudgetUnreachableError,
  type CompactionStrategy,
  compactionMetadataOf,
  createPipeline,
  createTokenCounter,
  deepEqual,
  type Message,
} from '@compaction/core';
import { formats } from '@compaction/formats';
import { createPruning } from '@compaction/strategy-pruning';
import { createSlidingWindow } from '@compaction/strategy-sliding-window';
import { createSummarization } from '@compaction/strategy-summarization';
import { createToolResultTruncation } from '@compaction/strategy-tool-result-truncation';
import { compactedRequestViolations, createMockProvider } from '@compaction/testing';
import { describe, expect, it } from 'vitest';

const task = 'Read every file under src/ and tell me which one is the longest.';

// How Codex opens its Responses input: two developer messages, the environment in a user message, then the task.
const opening = [
  {
    type: 'message',
    role: 'developer',
    content: [{ type: 'input_text', text: 'You are Codex, a coding agent.' }],
  },
  {
    type: 'message',
    role: 'developer',
    content: [
      { type: 'input_text', text: '<permissions instructions>workspace-write</permissions instructions>' },
    ],
  },
  {
    type: 'message',
    role: 'user',
    content: [
      { type: 'input_text', text: '<environment_context>\n  <cwd>/work</cwd>\n</environment_context>' },
    ],
  },
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: task }] },
];

/** One Codex turn: reasoning, a shell call reading a large file, its output. */
function turn(index: number): Record<string, unknown>[] {
  const callId = `call_${index}`;
  return [
    { type: 'reasoning', id: `rs_${index}`, summary: [], encrypted_content: `opaque-${index}` },
    {
      type: 'function_call',
      id: `fc_${index}`,
      call_id: callId,
      name: 'shell',
      arguments: JSON.stringify({ command: ['cat', `src/file_${index}.ts`] }),
    },
    {
      type: 'function_call_output',
      call_id: callId,
      output: `// file ${index}\n${'const x = 1;\n'.repeat(150)}`,
    },
  ];
}

const request = (input: unknown[]) => ({
  model: 'gpt-5-codex',
  instructions: 'Codex base instructions',
  input,
});

/**
 * Every bundled strategy, and the default pipeline, as the CLI would run them, with the share of each request
 * they compact it to (tool-result truncation keeps every call, so it cannot go as low), and whether the
 * opening stays a prefix: summarization's default placement (`user-before-task`) puts its summary right
 * before the first user message, among the opening's messages, which it keeps verbatim and in order.
 */
const strategies: Array<[string, () => CompactionStrategy, { share: number; prefix: boolean }]> = [
  ['sliding-window', () => createSlidingWindow(), { share: 0.35, prefix: true }],
  ['pruning', () => createPruning(), { share: 0.35, prefix: true }],
  ['tool-result-truncation', () => createToolResultTruncation(), { share: 0.6, prefix: true }],
  [
    'summarization',
    () => createSummarization({ provider: createMockProvider({ responses: [] }) }),
    { share: 0.35, prefix: false },
  ],
  [
    'summarization placed after the task',
    () =>
      createSummarization({
        provider: createMockProvider({ responses: [] }),
        placement: 'assistant-after-task',
      }),
    { share: 0.35, prefix: true },
  ],
  [
    'tool-result-truncation then sliding-window',
    () => createPipeline([createToolResultTruncation(), createSlidingWindow()]),
    { share: 0.35, prefix: true },
  ],
];

/** Compacts a request to `share` of its size through the CLI's Responses format; returns the request written. */
async function compactRequest(
  strategy: CompactionStrategy,
  body: Record<string, unknown>,
  share: number,
  round: number,
): Promise<Record<string, unknown>> {
  const format = formats['openai-responses'];
  const conversation = await format.read(body);
  const counter = createTokenCounter();
  const target = Math.floor(counter.estimate(conversation.messages) * share);
  try {
    const { messages } = await strategy.compact({
      messages: conversation.messages,
      counter,
      budget: { limit: target, target },
      trigger: 'auto',
      round,
    });
    return JSON.parse(await format.write(messages, conversation)) as Record<string, unknown>;
  } catch (error) {
    // Tool-result truncation keeps every call: once they alone are over the target, the request goes as sent.
    if (BudgetUnreachableError.isInstance(error)) return body;
    throw error;
  }
}

/** Whether an input item is a message (not a call, an output or reasoning). */
const isMessage = (item: unknown) =>
  typeof item === 'object' &&
  item !== null &&
  'role' in item &&
  (item as { type?: string }).type !== 'reasoning';

/** The removal markers or summaries a request holds, read back as the next compaction reads them. */
async function notesIn(body: Record<string, unknown>, kind: 'marker' | 'summary'): Promise<Message[]> {
  const { messages } = await formats['openai-responses'].read(body);
  return messages.filter((message) => compactionMetadataOf(message)?.kind === kind);
}

describe('a Codex-shaped Responses request through the CLI formats', () => {
  for (const [name, strategy, { share, prefix }] of strategies) {
    it(`keeps the whole opening, the task among it, with ${name}, compaction after compaction`, async () => {
      const compactor = strategy();
      let original: unknown[] = [...opening];
      for (let index = 0; index < 20; index++) original.push(...turn(index));
      let sent = original;
      for (let round = 1; round <= 6; round++) {
        const before = request(original);
        const compacted = await compactRequest(compactor, request(sent), share, round);
        expect(compactedRequestViolations('openai-responses', before, compacted)).toEqual([]);
        const input = compacted.input as unknown[];
        // The opening, byte for byte, first.
        if (prefix) expect(input.slice(0, opening.length)).toEqual(opening);
        expect(JSON.stringify(compacted)).toContain(task);
        // One note at most (a removal marker or a summary), however many compactions came before.
        const notes = input.filter(
          (item) => isMessage(item) && !original.some((candidate) => deepEqual(candidate, item)),
        );
        expect(notes.length).toBeLessThanOrEqual(1);
        expect(
          (await notesIn(compacted, 'marker')).length + (await notesIn(compacted, 'summary')).length,
        ).toBe(notes.length);
        // The next request: what was sent (as the proxy remembers it) and three more turns.
        const added = [0, 1, 2].flatMap((offset) => turn(20 + 3 * round + offset));
        original = [...original, ...added];
        sent = [...input, ...added];
      }
    });
  }

  it('reports the task dropped from the opening as compacted.opening-kept', () => {
    const original = request([...opening, ...turn(0), ...turn(1)]);
    const withoutTask = request([...opening.slice(0, 3), ...turn(1)]);
    expect(compactedRequestViolations('openai-responses', original, withoutTask)).toContainEqual(
      expect.objectContaining({ rule: 'compacted.opening-kept' }),
    );
  });
});
