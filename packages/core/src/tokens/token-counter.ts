import type { Message } from '../messages/message.js';
import type { TokenCounterV1 } from '../specs/token-counter-v1.js';
import type { TokenEstimator } from '../specs/token-estimator-v1.js';
import { createFastEstimator } from './fast-estimator.js';

/** Input tokens a provider reported for a request, and the messages that request carried. */
export interface ReportedUsage {
  /** The messages sent, in order. Only their identity is kept, not copies. */
  messages: readonly Message[];
  /** The input tokens the provider reported for them (including anything else the request carried). */
  inputTokens: number;
}

/** The default token counter: the {@link TokenCounterV1} spec, and usage to anchor its counts on. */
export interface AnchoredTokenCounter extends TokenCounterV1 {
  recordUsage(usage: ReportedUsage): void;
  clearUsage(): void;
  /** How many leading messages of `messages` a recorded usage covers exactly (0 when none does). */
  anchoredLength(messages: readonly Message[]): number;
}

/**
 * Creates a token counter over `estimator` (default: the fast estimator with the o200k profile). Per-message
 * results are memoized by object identity (messages are immutable), and counts can be anchored on what a
 * provider reported: once a request's usage is recorded, any list that starts with the same message objects
 * counts as the reported number plus estimates for the messages added since. Re-checking a long history
 * after appending one message therefore costs one estimate and a pass of identity comparisons.
 */
export function createTokenCounter(estimator?: TokenEstimator): AnchoredTokenCounter {
  return new MemoizedTokenCounter(estimator);
}

class MemoizedTokenCounter implements AnchoredTokenCounter {
  readonly specificationVersion = 'v1';
  readonly estimator: TokenEstimator;
  private readonly perMessage = new WeakMap<Message, number>();
  /** Recorded usages, newest first: one per conversation this counter serves (see {@link recordUsage}). */
  private anchors: Anchor[] = [];

  constructor(estimator: TokenEstimator = createFastEstimator()) {
    this.estimator = estimator;
  }

  countMessage(message: Message): number {
    let tokens = this.perMessage.get(message);
    if (tokens === undefined) {
      tokens = this.estimator.countMessage(message);
      this.perMessage.set(message, tokens);
    }
    return tokens;
  }

  count(messages: readonly Message[]): number {
    const anchored = this.anchoredPrefix(messages);
    let total = anchored?.inputTokens ?? 0;
    for (let index = anchored?.messages.length ?? 0; index < messages.length; index++) {
      total += this.countMessage(messages[index]!);
    }
    return total;
  }

  estimate(messages: readonly Message[]): number {
    let total = 0;
    for (const message of messages) total += this.countMessage(message);
    return total;
  }

  recordUsage(usage: ReportedUsage): void {
    if (!Number.isFinite(usage.inputTokens) || usage.inputTokens < 0 || usage.messages.length === 0) return;
    const anchor: Anchor = { messages: [...usage.messages], inputTokens: usage.inputTokens };
    // The usage replaces earlier ones of the same conversation: those it extends, and those it shares its
    // first two messages with (the system prompt and task a compaction keeps), which a compaction made
    // diverge and which would otherwise hold on to the history the compaction let go.
    const others = this.anchors.filter(
      (existing) =>
        !isPrefix(existing.messages, anchor.messages) && !sameStart(existing.messages, anchor.messages),
    );
    this.anchors = [anchor, ...others].slice(0, maximumAnchors);
  }

  clearUsage(): void {
    this.anchors = [];
  }

  anchoredLength(messages: readonly Message[]): number {
    return this.anchoredPrefix(messages)?.messages.length ?? 0;
  }

  /** The most recently recorded usage whose messages start `messages`, if any. */
  private anchoredPrefix(messages: readonly Message[]): Anchor | undefined {
    return this.anchors.find((anchor) => isPrefix(anchor.messages, messages));
  }
}

/** How many conversations' usages one counter keeps. */
const maximumAnchors = 16;

interface Anchor {
  messages: readonly Message[];
  inputTokens: number;
}

/** Whether two lists start with the same two message objects (one conversation, before and after a change). */
function sameStart(left: readonly Message[], right: readonly Message[]): boolean {
  return left.length >= 2 && right.length >= 2 && left[0] === right[0] && left[1] === right[1];
}

/**
 * Whether `prefix` is the start of `messages`, by identity. The last message is compared first: for a list
 * from another conversation that is where they differ, so a miss costs one comparison.
 */
function isPrefix(prefix: readonly Message[], messages: readonly Message[]): boolean {
  if (prefix.length > messages.length) return false;
  for (let index = prefix.length - 1; index >= 0; index--) {
    if (prefix[index] !== messages[index]) return false;
  }
  return true;
}
