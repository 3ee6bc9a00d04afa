import { createTokenCounter, type Message, type TokenCounter } from '@compaction/core';
import { generateCodingHistory } from '@compaction/testing';
import { secondsPerCall } from './measure.js';

/** What re-checking a long conversation after one new message costs, against counting it from scratch. */
export interface IncrementalCheckResult {
  messages: number;
  /** The fast estimator's count of the whole conversation. */
  estimatedTokens: number;
  scratchSeconds: number;
  /** Memoized per message, no usage recorded: a pass of cache look-ups plus one estimate. */
  memoizedSeconds: number;
  /** Usage recorded for the conversation: identity comparisons plus one estimate. */
  anchoredSeconds: number;
}

/** Counts `generateCodingHistory()` (2,000 messages, about 1M tokens) from scratch and again after one appended message. */
export function measureIncrementalCheck(): IncrementalCheckResult {
  const history = generateCodingHistory();
  const estimatedTokens = createTokenCounter().count(history);
  const scratchSeconds = secondsPerCall(() => createTokenCounter().count(history), 7, 0.2);

  // Each timed call appends a new message object, so its estimate is never a cache hit. The list is the
  // benchmark's own array; only its last slot changes.
  const extended: Message[] = [...history, history[1]!];
  let next = 0;
  const appendOne = (counter: TokenCounter) => {
    extended[history.length] = {
      role: 'user',
      content: [{ type: 'text', text: `Please also run the tests for case ${next++} and report back.` }],
    };
    return counter.count(extended);
  };
  const memoized = createTokenCounter();
  memoized.count(history);
  const memoizedSeconds = secondsPerCall(() => appendOne(memoized), 7, 0.05);

  const anchored = createTokenCounter();
  anchored.recordUsage({ messages: history, inputTokens: estimatedTokens });
  const anchoredSeconds = secondsPerCall(() => appendOne(anchored), 7, 0.05);
  return { messages: history.length, estimatedTokens, scratchSeconds, memoizedSeconds, anchoredSeconds };
}
