import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation } from '../__fixtures__/messages.js';
import type { Message } from '../messages/message.js';
import { deepEqual } from '../verify/deep-equal.js';
import { verifyCompaction } from '../verify/verify-compaction.js';
import {
  controlledStrategy,
  counter,
  recordEvents,
  settle,
  turns,
} from './__fixtures__/background-scenario.js';
import { type CompactionResult, createCompactor } from './compactor.js';

type Edit =
  | { kind: 'append'; count: number }
  | { kind: 'edit'; at: number }
  | { kind: 'remove'; at: number }
  | { kind: 'insert'; at: number };

const editArbitrary: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('edit' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat() }),
);

/** A copy of `message` with different content: a text, a tool output or a tool input changed. */
function changed(message: Message): Message {
  const copy = structuredClone(message);
  const [part] = copy.content as { type: string; text?: string; output?: unknown; input?: unknown }[];
  if (part?.type === 'text') part.text = `${part.text} (edited)`;
  if (part?.type === 'tool-result') part.output = 'edited output';
  if (part?.type === 'tool-call') part.input = { command: 'edited' };
  return copy;
}

/** Applies `edit`, keeping tool calls and results paired; what it removes or replaces goes to `gone`. */
function apply(history: Message[], edit: Edit, label: string, gone: Set<Message>): Message[] {
  if (edit.kind === 'append') return [...history, ...turns(edit.count, label)];
  const at = edit.at % history.length;
  if (edit.kind === 'edit') {
    gone.add(history[at]!);
    return history.with(at, changed(history[at]!));
  }
  // Turns start at a message that is not a tool result; the system prompt stays first.
  const starts = history.flatMap((message, index) => (index > 0 && message.role !== 'tool' ? [index] : []));
  const start = starts[edit.at % starts.length]!;
  if (edit.kind === 'insert') return history.toSpliced(start, 0, ...turns(1, label).slice(0, 2));
  const end = history[start + 1]?.role === 'tool' ? start + 2 : start + 1;
  if (history[start]!.role === 'user') return history;
  for (const message of history.slice(start, end)) gone.add(message);
  return history.toSpliced(start, end - start);
}

describe('Compactor background compaction, over random histories and edits', () => {
  it('uses a background result only for a history it describes, never returns one over the limit, and returns a valid history', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 6, max: 14 }),
        fc.integer({ min: 100, max: 600 }),
        fc.array(editArbitrary, { maxLength: 4 }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        async (steps, outputSize, edits, readyAtTrigger, overLimit, later) => {
          const base = conversation(steps, outputSize);
          // The base sits at 70% of the limit: between `prepareAt` (60%) and the trigger (85%).
          const contextWindow = Math.ceil(counter.count(base) / 0.7);
          const budget = {
            contextWindow,
            reservedOutputTokens: 0,
            safetyMargin: 0,
            trigger: 0.85,
            target: 0.4,
          };
          const { strategy, state, hold } = controlledStrategy();
          const compactor = createCompactor({ strategy, budget, counter, background: { prepareAt: 0.6 } });
          const { limit, trigger } = compactor.budget;
          const events = recordEvents(compactor);
          if (!readyAtTrigger) hold();
          await compactor.prepare(base, { sessionId: 'p' });
          if (readyAtTrigger) await settle();
          const gone = new Set<Message>();
          let history = edits.reduce(
            (current, edit, index) => apply(current, edit, `edit${index}`, gone),
            base,
          );
          // Over the trigger, and over the limit too when `overLimit`: where `prepare` may block.
          const over = overLimit ? limit : trigger!;
          for (let pad = 0; counter.count(history) <= over; pad++) {
            history = [...history, ...turns(1, `pad${pad}`)];
          }
          const results: { history: Message[]; result: CompactionResult }[] = [];
          const pending = compactor.prepare(history, { sessionId: 'p' });
          state.release();
          results.push({ history, result: await pending });
          // What the first call used: the base's job, or none (a job started since describes a later history).
          const used = events.background.find((event) => event.status === 'used');
          // Later calls, each a turn after what the previous one returned, once the job had time to end.
          for (let call = 0; call < later; call++) {
            await settle();
            const next: Message[] = [...results.at(-1)!.result.messages, ...turns(1, `later${call}`)];
            results.push({ history: next, result: await compactor.prepare(next, { sessionId: 'p' }) });
          }

          const describes = base.every((message, index) => deepEqual(history[index], message));
          if (!describes) expect(used).toBeUndefined();
          if (describes && readyAtTrigger) expect(used).toBeDefined();
          for (const { history: sent, result } of results) {
            expect(counter.count(result.messages)).toBeLessThanOrEqual(limit);
            expect(verifyCompaction({ before: sent, after: result.messages, counter, limit })).toEqual([]);
            if (result.skipped === 'background-pending') expect(result.messages).toEqual(sent);
          }
          const [first] = results;
          if (used?.status === 'used' && !used.compactedAgain && first!.result.compacted) {
            // Everything after the compacted prefix, in order, as the caller's own objects.
            expect(first!.result.messages.slice(-(history.length - base.length))).toEqual(
              history.slice(base.length),
            );
          }
          const current = new Set(history);
          for (const message of results.flatMap(({ result }) => result.messages)) {
            expect(gone.has(message) && !current.has(message)).toBe(false);
            const stale = [...gone].some((old) => deepEqual(old, message));
            expect(stale && !history.some((kept) => deepEqual(kept, message))).toBe(false);
          }
        },
      ),
    );
  });
});
