import {
  BudgetUnreachableError,
  type CompactionStrategy,
  compactionMetadataOf,
  type Message,
  openingIndexes,
  type TokenCounter,
  toolCallsOf,
} from '@compaction/core';
import fc from 'fast-check';
import { conversationArbitrary } from './conversation-arbitrary.js';
import { deepFreeze } from './deep-freeze.js';

/**
 * One case of the repeated-compaction property: a conversation with a multi-message opening, the turns added
 * after each compaction, the budget as shares of each round's size, and, per round, whether the compacted
 * history comes back without its metadata (as it does read back from a provider's format).
 */
export interface RoundsCase {
  messages: Message[];
  additions: Message[][];
  limitShare: number;
  targetShare: number;
  readBack: boolean[];
}

/** Whether a history ends with tool calls still waiting for their results (nothing may be added after it). */
function endsWaiting(messages: readonly Message[]): boolean {
  const last = messages.at(-1);
  return last !== undefined && toolCallsOf(last).length > 0;
}

/** Turns added between compactions: a generated conversation from its first model turn on, call ids renamed. */
function additionArbitrary(batch: number): fc.Arbitrary<Message[]> {
  return conversationArbitrary({ maxSteps: 6, minSteps: 1 })
    .map((messages) => {
      const first = messages.findIndex((message) => message.role === 'assistant');
      return renameCalls(
        first === -1 ? messages.filter((m) => m.role === 'user') : messages.slice(first),
        batch,
      );
    })
    .filter((messages) => messages.length > 0 && !endsWaiting(messages));
}

function renameCalls(messages: Message[], batch: number): Message[] {
  const rename = (id: string) => `round${batch}_${id}`;
  return messages.map((message): Message => {
    if (message.role === 'assistant') {
      return {
        ...message,
        content: message.content.map((part) =>
          part.type === 'tool-call' ? { ...part, toolCallId: rename(part.toolCallId) } : part,
        ),
      };
    }
    if (message.role === 'tool') {
      return {
        ...message,
        content: message.content.map((part) => ({ ...part, toolCallId: rename(part.toolCallId) })),
      };
    }
    return message;
  });
}

/** The cases of the repeated-compaction property: two to five compactions. */
export const roundsCaseArbitrary: fc.Arbitrary<RoundsCase> = fc.integer({ min: 2, max: 5 }).chain((rounds) =>
  fc.record({
    messages: conversationArbitrary({ multiMessageOpening: true, minSteps: 4 }).filter(
      (messages) => !endsWaiting(messages),
    ),
    additions: fc.tuple(...Array.from({ length: rounds - 1 }, (_, batch) => additionArbitrary(batch + 1))),
    limitShare: fc.double({ min: 0.3, max: 0.9, noNaN: true }),
    targetShare: fc.double({ min: 0.4, max: 0.9, noNaN: true }),
    readBack: fc.array(fc.boolean(), { minLength: rounds, maxLength: rounds }),
  }),
);

/**
 * What a provider's format keeps of a message compaction wrote or changed: its content, not its metadata.
 * Messages compaction did not touch come back the same objects, as the proxy's prefix memory sends them.
 */
function readBack(message: Message): Message {
  if (compactionMetadataOf(message)?.kind === undefined || message.metadata?.compaction === undefined) {
    return message;
  }
  const { compaction: _, ...metadata } = message.metadata;
  const copy = { ...message } as Message;
  if (Object.keys(metadata).length === 0) delete copy.metadata;
  else copy.metadata = metadata;
  return copy;
}

/**
 * Compacts a conversation again and again, adding turns between (the compacted history read back without its
 * metadata where the case says so), and throws at the first round that breaks the shape: the opening of the
 * conversation must stay the same objects, in order; removal markers at most one per run of removed messages,
 * never two side by side, each counting at least one message and together no more than are missing.
 */
export async function compactInRounds(
  strategy: CompactionStrategy,
  newCounter: () => TokenCounter,
  testCase: RoundsCase,
): Promise<boolean> {
  const opening = openingIndexes(testCase.messages).map((index) => testCase.messages[index]!);
  const originals: Message[] = [...testCase.messages];
  // Markers read back without their metadata, with their counts: the property knows them whatever core does.
  const readBackMarkers = new Map<Message, number | undefined>();
  let sent: Message[] = testCase.messages;
  for (let round = 1; round <= testCase.additions.length + 1; round++) {
    const counter = newCounter();
    const total = counter.estimate(sent);
    const limit = Math.max(1, Math.floor(total * testCase.limitShare));
    const budget = { limit, target: Math.max(1, Math.floor(limit * testCase.targetShare)) };
    let output: Message[];
    try {
      output = (
        await strategy.compact({ messages: deepFreeze([...sent]), counter, budget, trigger: 'auto', round })
      ).messages;
    } catch (error) {
      if (BudgetUnreachableError.isInstance(error)) return true;
      throw error;
    }
    const problem = shapeProblem(opening, originals, output, readBackMarkers);
    if (problem !== undefined) throw new Error(`after compaction ${round}: ${problem}`);
    const added = testCase.additions[round - 1] ?? [];
    originals.push(...added);
    const kept = testCase.readBack[round - 1] === true ? output.map(readBack) : output;
    kept.forEach((message, index) => {
      const marks = compactionMetadataOf(output[index]!);
      if (message !== output[index] && marks?.kind === 'marker') {
        readBackMarkers.set(message, marks.removedMessages);
      }
    });
    sent = [...kept, ...added];
  }
  return true;
}

/** What breaks the shape of a compacted history, against every original message so far, or undefined. */
function shapeProblem(
  opening: readonly Message[],
  originals: readonly Message[],
  output: readonly Message[],
  readBackMarkers: ReadonlyMap<Message, number | undefined>,
): string | undefined {
  let from = 0;
  for (const message of opening) {
    const found = output.indexOf(message, from);
    if (found === -1) return 'a message of the opening was removed, changed or moved out of order';
    from = found + 1;
  }
  const positions = new Map(originals.map((message, index) => [message, index]));
  const present = new Uint8Array(originals.length);
  let markers = 0;
  let counted = 0;
  let previousWasMarker = false;
  for (const message of output) {
    const position = positions.get(message);
    if (position !== undefined) present[position] = 1;
    const isMarker =
      position === undefined &&
      (readBackMarkers.has(message) || compactionMetadataOf(message)?.kind === 'marker');
    if (isMarker && previousWasMarker) return 'two removal markers stand side by side';
    previousWasMarker = isMarker;
    if (!isMarker) continue;
    markers++;
    const count = readBackMarkers.has(message)
      ? readBackMarkers.get(message)
      : compactionMetadataOf(message)?.removedMessages;
    if (typeof count === 'number') {
      if (count < 1) return `a removal marker counts ${count} messages`;
      counted += count;
    }
  }
  // Runs of original messages missing from the result (removed, or replaced by a changed copy).
  let runs = 0;
  let missing = 0;
  present.forEach((isPresent, index) => {
    if (isPresent === 1) return;
    missing++;
    if (index === 0 || present[index - 1] === 1) runs++;
  });
  if (markers > runs) return `${markers} removal markers for ${runs} runs of removed messages`;
  if (counted > missing) return `the removal markers count ${counted} messages, but ${missing} are missing`;
  return undefined;
}
