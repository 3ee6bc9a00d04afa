import type { CompactionEvent, ContextOverflowError } from '@compaction/core';

/**
 * Events a provider's conversation emits, by name, for its request body type and response type. `step`
 * numbers the model calls of the conversation (1 for the first `send`); a retry after an overflow keeps its
 * step and has the next `attempt` (2, then 3). `InputTokens` is `number` for providers that always report usage.
 */
export interface ConversationLoopEvents<
  Body,
  Response,
  InputTokens extends number | undefined = number | undefined,
> {
  /**
   * The history was compacted: proactively before a request (`auto`), after an overflow, or by `compact()` or
   * the model's call of the `compact` tool (`manual`).
   */
  compaction: { step: number; event: CompactionEvent };
  /** A request is about to be sent, with its body as the SDK receives it. */
  request: { step: number; attempt: number; body: Body };
  /**
   * The API refused a request as too long; the conversation compacts and retries, at most
   * `maximumOverflowRetries` times (each retry keeps its step, with the next `attempt`).
   */
  overflow: { step: number; error: ContextOverflowError };
  /** The API answered; the answer is already in the history. `inputTokens` is undefined without usage. */
  response: { step: number; response: Response; inputTokens: InputTokens };
  /**
   * The note turn before an automatic compaction (`beforeCompaction`) ended, before the request of `step`:
   * the note `written` (pinned in the history, its `text` without the prefix), `empty` (the model wrote
   * nothing) or `failed` (the call failed or timed out: `error` says why). The compaction goes on either way.
   */
  note: { step: number; status: 'written' | 'empty' | 'failed'; text?: string; error?: unknown };
}
