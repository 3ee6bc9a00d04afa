import { createTokenCounter, type Message } from '@compaction/core';
import { generateCodingHistory } from '@compaction/testing';

/** Messages of the probe history that sets how many messages make a given number of tokens. */
const probeMessages = 2000;

/**
 * A generated coding-agent history of about `tokens` tokens (within a few percent: the generator's turns
 * vary in size), so that the same strategies can be timed at sizes an order of magnitude apart.
 */
export function sizedCodingHistory(tokens: number): Message[] {
  const probe = generateCodingHistory({ messages: probeMessages });
  const tokensPerMessage = createTokenCounter().count(probe) / probe.length;
  return generateCodingHistory({ messages: Math.max(4, Math.round(tokens / tokensPerMessage)) });
}
