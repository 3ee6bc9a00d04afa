import {
  type CompactionResult,
  type CompactionStrategy,
  createCompactor,
  createTokenCounter,
  InMemoryCompactionStore,
  type Message,
  type TokenCounter,
} from '@compaction/core';
import { createRecallTool } from '@compaction/recall';
import { codingConversation, toolTurn, userMessage } from './coding-conversation.js';
import { expectedRecalls } from './recall-expectations.js';

/** What a compaction of a recall round trip was asked for: the budget, the counter and the round number. */
export interface RecallRoundInput {
  counter: TokenCounter;
  budget: { limit: number; target: number };
  round: number;
}

/** One compaction of a recall round trip: what was compacted, what came back, and each handle's text. */
export interface RecallRound {
  before: Message[];
  result: CompactionResult;
  input: RecallRoundInput;
  /** Each handle the result newly names, with the text it must recall ({@link expectedRecalls}). */
  expected: Map<string, string>;
  /** What the recall tool's `lookup` gave for each of those handles (undefined when it found none). */
  recalled: Map<string, string | undefined>;
}

/**
 * Compacts a coding conversation twice with `archive` on, through a Compactor with an in-memory store: once,
 * then again after more turns were added to the compacted history. After each round, every handle the
 * result names is looked up with the session's recall tool. Used by each strategy package's tests: a test
 * compares `recalled` with `expected` for every round, so every handle must give back exactly what was
 * removed; and the handles of the first round must still be found after the second. A pipeline's test
 * passes `expect`, since what a later stage removes is the earlier stages' output, not the history.
 */
export async function recallRoundTrip(
  strategy: CompactionStrategy,
  settings: {
    steps?: number;
    resultCharacters?: number;
    expect?: (
      before: Message[],
      after: Message[],
      input: RecallRoundInput,
    ) => Map<string, string> | Promise<Map<string, string>>;
  } = {},
): Promise<{ rounds: RecallRound[]; lookup: (handle: string) => Promise<string | undefined> }> {
  const counter = createTokenCounter();
  const history = codingConversation(settings.steps ?? 16, settings.resultCharacters ?? 3000);
  const store = new InMemoryCompactionStore();
  const compactor = createCompactor({
    strategy,
    counter,
    store,
    archive: true,
    budget: {
      contextWindow: Math.ceil(counter.estimate(history) * 0.8),
      reservedOutputTokens: 0,
      safetyMargin: 0,
      trigger: 0.7,
      target: 0.4,
    },
  });
  const recall = createRecallTool({
    store,
    sessionId: 'session',
    maximumCharacters: Number.MAX_SAFE_INTEGER,
  });
  const lookup = async (handle: string) => (await recall.lookup(handle))?.text;
  const rounds: RecallRound[] = [];
  let before: Message[] = history;
  for (let round = 0; round < 2; round++) {
    const result = await compactor.compact(before, { sessionId: 'session' });
    const input = {
      counter: createTokenCounter(),
      budget: { limit: compactor.budget.limit, target: compactor.budget.target },
      round: round + 1,
    };
    const expected = await (settings.expect ?? expectedRecalls)(before, result.messages, input);
    const recalled = new Map<string, string | undefined>();
    for (const handle of expected.keys()) recalled.set(handle, await lookup(handle));
    rounds.push({ before, result, input, expected, recalled });
    const more = Array.from({ length: 8 }, (_, index) => toolTurn(`later_${round}_${index}`, 3000)).flat();
    before = [...result.messages, ...more, userMessage(`Round ${round + 2}: keep going.`)];
  }
  return { rounds, lookup };
}
