import { createCompactor, type Message } from '@compaction/core';
import { fromAnthropicRequest, toAnthropicRequest } from '@compaction/provider-anthropic';
import {
  fromOpenAIChatMessages,
  fromOpenAIResponsesInput,
  toOpenAIChatMessages,
  toOpenAIResponsesInput,
} from '@compaction/provider-openai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSummarization } from './create-summarization.js';

// A proxy reads each request from a provider's format, compacts it and writes it back; the next request holds
// the compacted one as the provider's format has it, without Compaction's metadata, and with messages of the
// same role joined where the format joins them (Anthropic joins the summary with the model turn after it). The
// trail must still carry every earlier compaction's files, and stay one summary after the untouched opening.

/** A format as the wire has it: the request's items in order (Anthropic's system prompt first). */
interface WireFormat {
  write(messages: Message[]): unknown[];
  read(items: unknown[]): Message[];
}

const formats: Record<string, WireFormat> = {
  anthropic: {
    write: (messages) => {
      const request = toAnthropicRequest(messages);
      return [request.system ?? null, ...request.messages];
    },
    read: ([system, ...messages]) =>
      fromAnthropicRequest({ ...(system === null ? {} : { system }), messages } as never),
  },
  chat: {
    write: (messages) => toOpenAIChatMessages(messages),
    read: (items) => fromOpenAIChatMessages(items as never),
  },
  responses: {
    write: (messages) => toOpenAIResponsesInput(messages) as unknown[],
    read: (items) => fromOpenAIResponsesInput(items as never),
  },
};

/** Through the wire and back, as plain JSON. */
function roundTrip(format: WireFormat, messages: Message[]): Message[] {
  return format.read(JSON.parse(JSON.stringify(format.write(messages))) as unknown[]);
}

/** One agent step: a short remark, a read of `path` and its result of `lines` lines. */
function readStep(index: number, path: string, lines: number): Message[] {
  const toolCallId = `call_${index}`;
  return [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: `Step ${index}: reading ${path}.` },
        { type: 'tool-call', toolCallId, toolName: 'read', input: { path } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId,
          toolName: 'read',
          output: `# ${path}\n${'x = 1\n'.repeat(lines)}`,
        },
      ],
    },
  ];
}

const opening: Message[] = [
  { role: 'system', content: [{ type: 'text', text: 'You are a coding agent.' }] },
  {
    role: 'user',
    content: [{ type: 'text', text: 'Read the modules one by one and report what each defines.' }],
  },
];

/** How many files the trail says it folded away for room. */
function foldedFiles(text: string): number {
  return Number(/Oldest detail folded: (\d+) files?\b/.exec(text)?.[1] ?? 0);
}

/** Runs an agent of `steps` through `format`, compacting before each request; returns what was sent last. */
async function runThroughFormat(
  format: WireFormat,
  steps: ReadonlyArray<{ lines: number; depth: number }>,
  contextWindow: number,
) {
  const compactor = createCompactor({
    strategy: createSummarization({
      maxOutputTokens: 0,
      recentShare: 0.05,
      placement: 'assistant-after-task',
    }),
    budget: { contextWindow, reservedOutputTokens: 500 },
  });
  let history = roundTrip(format, opening);
  const paths: string[] = [];
  let compactions = 0;
  for (const [index, { lines, depth }] of steps.entries()) {
    const path = `src/${'package/'.repeat(depth)}m${index}.py`;
    paths.push(path);
    const prepared = await compactor.prepare([...history, ...readStep(index, path, lines)]);
    if (prepared.compacted) compactions++;
    history = roundTrip(format, prepared.messages);
  }
  const wire = format.write(history);
  return { wire, text: JSON.stringify(wire), paths, compactions };
}

/** The checks of every run: every file named or counted as folded, at most one summary, the opening as sent. */
function expectTrailCarried(
  format: WireFormat,
  run: Awaited<ReturnType<typeof runThroughFormat>>,
  checks: { opening: boolean } = { opening: true },
): void {
  const { wire, text, paths, compactions } = run;
  const missing = paths.filter((path) => !text.includes(path));
  expect(missing.length).toBeLessThanOrEqual(foldedFiles(text));
  // Folding drops the oldest first: every file still named is newer than every file dropped.
  const newestMissing = Math.max(-1, ...missing.map((path) => paths.indexOf(path)));
  expect(missing.map((path) => paths.indexOf(path))).toEqual(
    Array.from({ length: newestMissing + 1 }, (_, index) => index).filter((index) =>
      missing.includes(paths[index]!),
    ),
  );
  expect(text.match(/\[Summary of \d+ earlier messages/g)?.length ?? 0).toBe(compactions > 0 ? 1 : 0);
  if (!checks.opening) return;
  const sentOpening = format.write(opening);
  expect(wire.slice(0, sentOpening.length).map((item) => JSON.stringify(item))).toEqual(
    sentOpening.map((item) => JSON.stringify(item)),
  );
}

describe('the artifact trail through a provider format, compaction after compaction', () => {
  it.each(Object.keys(formats))(
    '%s: names the files of every removed turn, keeps one summary and the opening as sent',
    async (name) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({ lines: fc.integer({ min: 1, max: 120 }), depth: fc.integer({ min: 0, max: 8 }) }),
            { minLength: 15, maxLength: 120 },
          ),
          fc.integer({ min: 2_000, max: 8_000 }),
          async (steps, contextWindow) => {
            expectTrailCarried(formats[name]!, await runThroughFormat(formats[name]!, steps, contextWindow));
          },
        ),
        { numRuns: 10 },
      );
    },
    120_000,
  );

  // So small a window keeps no turn after the summary, which then goes before the task (the placement's
  // fallback): the opening changes by design, and Anthropic Messages joins that summary into the task's message,
  // which is kept as it is, so this runs in the formats that keep it a message of its own.
  it.each(['chat', 'responses'])(
    '%s: with more files than the trail has room for, folds the oldest and says how many',
    async (name) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ lines: fc.constant(1), depth: fc.integer({ min: 5, max: 7 }) }), {
            minLength: 130,
            maxLength: 170,
          }),
          fc.integer({ min: 2_000, max: 2_400 }),
          async (steps, contextWindow) => {
            const run = await runThroughFormat(formats[name]!, steps, contextWindow);
            expect(foldedFiles(run.text)).toBeGreaterThan(0);
            expectTrailCarried(formats[name]!, run, { opening: false });
          },
        ),
        { numRuns: 3 },
      );
    },
    120_000,
  );
});
