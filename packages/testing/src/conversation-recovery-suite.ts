import {
  type CompactionEvent,
  type CompactionResult,
  ContextOverflowError,
  type Message,
} from '@compaction/core';
import { expect, it } from 'vitest';
import { type ConversationEventSource, recordConversationEvents } from './conversation-events-recorder.js';
import type { Reply, TestServer } from './loopback-server.js';

/** What {@link describeConversationRecovery} uses of a provider conversation. */
export interface RecoverableConversation extends ConversationEventSource<unknown, unknown> {
  readonly compactor: { readonly counter: { count(messages: readonly Message[]): number } };
  readonly history: unknown[];
  readonly coreHistory: Message[];
  readonly coreContext: Message[];
  readonly compactions: CompactionEvent[];
  send(input: string): Promise<unknown>;
  compact(options?: { instructions?: string }): Promise<CompactionResult>;
}

/** What {@link describeConversationRecovery} needs to know of an adapter's conversation and its API. */
export interface ConversationRecoverySettings<Item> {
  /** The loopback server the conversation's client talks to (started by the test file). */
  server: () => TestServer;
  /** The path requests go to, such as `/v1/messages`. */
  path: string;
  /** The API's refusal of a request as too long: 90,000 tokens for a 20,000-token window. */
  refusal: Reply;
  /** The API's 429 rate-limit reply. */
  rateLimited: Reply;
  /** The SDK's error class for a 429, which the conversation must throw unchanged. */
  rateLimitError: abstract new (
    ...args: never[]
  ) => unknown;
  /** A new history of `calls` finished `read_file` calls with large outputs, ending with the assistant. */
  longToolHistory: (calls: number) => Item[];
  /** Creates a conversation on the server that starts with `messages`, with the test file's compaction settings. */
  create: (messages?: Item[]) => RecoverableConversation | Promise<RecoverableConversation>;
}

/**
 * Registers the failure and on-demand tests every provider conversation passes over real HTTP: a refusal of
 * every retry throws a `ContextOverflowError` that lists the refused requests, one `overflow` compaction
 * between each two, with
 * the user turn kept and the caller's messages unchanged; other SDK errors are thrown unchanged, without a
 * compaction; `compact()` compacts the working context (trigger `manual`) and leaves the history whole. Call
 * it inside the adapter's `describe`.
 */
export function describeConversationRecovery<Item>(settings: ConversationRecoverySettings<Item>): void {
  it('throws a ContextOverflowError listing what it tried when every retry is refused too', async () => {
    const server = settings.server();
    server.handle(settings.path, () => settings.refusal);
    const initial = settings.longToolHistory(4);
    const conversation = await settings.create(initial);
    const events = recordConversationEvents(conversation);

    const failure = await conversation.send('Summarize what you found.').catch((error: unknown) => error);
    expect(ContextOverflowError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ requestTokens: 90_000, maximumTokens: 20_000 });
    // The error lists every refused request: each but the last was followed by one `overflow` compaction.
    const { attempts } = failure as { attempts: unknown[] };
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(server.requests).toHaveLength(attempts.length);
    expect(events.overflows).toHaveLength(attempts.length);
    expect(events.compactions.map(({ event }) => event.trigger)).toEqual(
      Array.from({ length: attempts.length - 1 }, () => 'overflow'),
    );
    // The user turn stays in the history, without an answer; the caller's array is unchanged.
    expect(conversation.history).toHaveLength(initial.length + 1);
    expect(initial).toEqual(settings.longToolHistory(4));
  });

  it('passes other SDK errors through unchanged, without compacting', async () => {
    const server = settings.server();
    server.handle(settings.path, () => settings.rateLimited);
    const conversation = await settings.create();
    await expect(conversation.send('Hello')).rejects.toBeInstanceOf(settings.rateLimitError);
    expect(server.requests).toHaveLength(1);
    expect(conversation.compactions).toEqual([]);
  });

  it('compacts on demand with compact(), leaving the history whole', async () => {
    // Ten calls: a history over the compaction target of every adapter's test settings, which compact() works to.
    const initial = settings.longToolHistory(10);
    const conversation = await settings.create(initial);
    const seen: CompactionEvent[] = [];
    conversation.on('compaction', ({ event }) => seen.push(event));
    const result = await conversation.compact({ instructions: 'keep the file names' });
    expect(result.compacted).toBe(true);
    expect(seen.map((event) => event.trigger)).toEqual(['manual']);
    expect(conversation.compactions.map((event) => event.trigger)).toEqual(['manual']);
    expect(conversation.history).toEqual(initial);
    expect(conversation.compactor.counter.count(conversation.coreContext)).toBeLessThan(
      conversation.compactor.counter.count(conversation.coreHistory),
    );
  });
}
