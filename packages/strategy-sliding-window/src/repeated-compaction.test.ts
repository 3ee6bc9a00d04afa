import {
  compactionMetadataOf,
  createCompactor,
  createTokenCounter,
  type Message,
  textOf,
} from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { createSlidingWindow } from './sliding-window.js';

// Codex's opening: two developer messages (system messages in core), the environment, then the task.
const opening: Message[] = [
  { role: 'system', content: [{ type: 'text', text: 'You are Codex, a coding agent.' }] },
  {
    role: 'system',
    content: [{ type: 'text', text: '<permissions instructions>sandboxed</permissions instructions>' }],
  },
  {
    role: 'user',
    content: [{ type: 'text', text: '<environment_context>cwd: /work</environment_context>' }],
  },
  { role: 'user', content: [{ type: 'text', text: 'Read every file and report the longest one.' }] },
];

/** One agent step: a call reading a large file and its result, with ids unique across the session. */
function step(index: number): Message[] {
  const toolCallId = `call_${index}`;
  return [
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId, toolName: 'read_file', input: { path: `src/file_${index}.ts` } },
      ],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId, toolName: 'read_file', output: `file ${index}\n`.repeat(200) },
      ],
    },
  ];
}

/** What a provider's format keeps of a compacted history: no metadata on what compaction wrote. */
const readBack = (messages: readonly Message[]): Message[] =>
  messages.map((message) => {
    if (compactionMetadataOf(message)?.kind === undefined) return message;
    const { compaction: _, ...metadata } = message.metadata ?? {};
    return { ...message, metadata } as Message;
  });

/** The markers of a history, and what each counts. */
const markersOf = (messages: readonly Message[]) =>
  messages.filter((message) => compactionMetadataOf(message)?.kind === 'marker');

describe('sliding-window compacting its own result again', () => {
  it('keeps one marker with the cumulative count and the opening byte for byte, read back 39 times', async () => {
    const strategy = createSlidingWindow();
    const counter = createTokenCounter();
    const originals: Message[] = [...opening, ...step(0), ...step(1)];
    let sent: Message[] = [...originals];
    const turnTokens = counter.estimate(step(0));
    for (let round = 1; round <= 39; round++) {
      const added = step(round + 1);
      originals.push(...added);
      sent = [...sent, ...added];
      const target = counter.estimate(opening) + 2 * turnTokens;
      const { messages } = await strategy.compact({
        messages: sent,
        counter: createTokenCounter(),
        budget: { limit: target + turnTokens, target },
        trigger: 'auto',
        round,
      });
      // The opening, the same objects, first.
      expect(messages.slice(0, opening.length).every((message, index) => message === opening[index])).toBe(
        true,
      );
      const markers = markersOf(messages);
      expect(markers).toHaveLength(1);
      // Every other message stands for one original: itself, or its results shortened.
      const missing = originals.length - (messages.length - markers.length);
      expect(textOf(markers[0]!)).toBe(`[${missing} earlier messages skipped to fit the context window.]`);
      // As the proxy sends it next time: read back from the provider's format.
      sent = readBack(messages);
    }
  });

  it('keeps one marker with the cumulative count through the Compactor, round after round', async () => {
    const compactor = createCompactor({
      strategy: createSlidingWindow(),
      budget: { contextWindow: 6000, reservedOutputTokens: 500 },
    });
    let history: Message[] = [...opening];
    let compactions = 0;
    for (let index = 0; index < 60; index++) {
      history = [...history, ...step(index)];
      const prepared = await compactor.prepare(history);
      if (prepared.compacted) compactions++;
      const { messages } = prepared;
      expect(messages.slice(0, opening.length).every((message, at) => message === opening[at])).toBe(true);
      const markers = markersOf(messages);
      expect(markers.length).toBeLessThanOrEqual(1);
      const missing = history.length - (messages.length - markers.length);
      if (missing > 0) {
        expect(markers).toHaveLength(1);
        expect(compactionMetadataOf(markers[0]!)?.removedMessages).toBe(missing);
      }
    }
    expect(compactions).toBeGreaterThan(3);
  });
});
