import type { Message } from '../messages/message.js';

/** What a provider's own compaction is asked: the span to compact, with the system messages as its context. */
export interface NativeCompactionRequestV1 {
  /** System messages first, then the span to compact. Never mutate them. */
  messages: Message[];
  /** Extra instructions for the provider's summarizer, such as the text of a manual `/compact ...`. */
  instructions?: string;
  abortSignal?: AbortSignal;
}

/**
 * A provider's own compaction (Anthropic's on-demand compaction, OpenAI's `responses.compact`), offered as a
 * provider's `nativeCompaction`: whether the model has it, and a call that returns the messages standing for a
 * span, with the provider's compaction block or item kept verbatim in their parts so that it is sent back as
 * it came. The `native` strategy reads it from the configured provider.
 */
export interface NativeCompactionV1 {
  /** The provider's name, for details and events: `anthropic`, `openai`. */
  readonly provider: string;
  /** Whether the configured model has native compaction. */
  supported(): boolean;
  /** Compacts the span on the provider's side and returns the messages to send in its place. */
  compact(request: NativeCompactionRequestV1): Promise<Message[]>;
}

/** The current native compaction spec. */
export type NativeCompaction = NativeCompactionV1;
/** The current native compaction request spec. */
export type NativeCompactionRequest = NativeCompactionRequestV1;
