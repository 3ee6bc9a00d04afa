import type { Message } from '@compaction/core';

/**
 * A provider's own compaction as the provider adapters offer it, as the `nativeCompaction` member of their
 * providers: the shape the `native` strategy (`@compaction/strategy-native`, its `NativeCompaction`) reads
 * from the configured provider. Declared here too so that an adapter need not depend on that strategy.
 */
export interface ProviderNativeCompaction {
  /** The provider's name, for details and events: `anthropic`, `openai`. */
  readonly provider: string;
  /** Whether the configured model has native compaction. */
  supported(): boolean;
  /**
   * Compacts `messages` (system messages first, then the span) on the provider's side and returns the messages
   * to send in the span's place, with the provider's block or item kept verbatim.
   */
  compact(request: {
    messages: Message[];
    instructions?: string;
    abortSignal?: AbortSignal;
  }): Promise<Message[]>;
}
