import type { Message, Provider } from '@compaction/core';

/** What a provider's own compaction is asked: the span to compact, with the system messages as its context. */
export interface NativeCompactionRequest {
  /** System messages first, then the span to compact. Never mutate them. */
  messages: Message[];
  /** Extra instructions for the provider's summarizer, such as the text of a manual `/compact ...`. */
  instructions?: string;
  abortSignal?: AbortSignal;
}

/**
 * A provider's own compaction (Anthropic's on-demand compaction, OpenAI's `responses.compact`), as the provider
 * packages offer it: whether the model has it, and a call that returns the messages standing for a span, with
 * the provider's compaction block or item kept verbatim in their parts so that it is sent back as it came.
 */
export interface NativeCompaction {
  /** The provider's name, for details and events: `anthropic`, `openai`. */
  readonly provider: string;
  /** Whether the configured model has native compaction. */
  supported(): boolean;
  /** Compacts the span on the provider's side and returns the messages to send in its place. */
  compact(request: NativeCompactionRequest): Promise<Message[]>;
}

/** A provider that also offers its own compaction (the provider packages' providers, when created for a model). */
export interface ProviderWithNativeCompaction extends Provider {
  readonly nativeCompaction?: NativeCompaction;
}

/** The native compaction a configured provider offers, if any. */
export function nativeCompactionOf(provider: Provider | undefined): NativeCompaction | undefined {
  return (provider as ProviderWithNativeCompaction | undefined)?.nativeCompaction;
}
