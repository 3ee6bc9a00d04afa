import type { Message } from '@compaction/core';

/** The conversation formats read and written here (and by the CLI). */
export const formatNames = ['core', 'anthropic', 'openai-chat', 'openai-responses', 'claude-code'] as const;

/** A conversation format name. */
export type FormatName = (typeof formatNames)[number];

/** A conversation read from an input: core messages, plus what is needed to write it back in its format. */
export interface Conversation {
  format: FormatName;
  messages: Message[];
  /**
   * The rest of the request the messages came from (model, tools, `max_tokens`...), kept so that the output
   * is the same request with compacted messages. `undefined` for a bare message list.
   */
  envelope?: Record<string, unknown>;
  /** The input was a bare list of messages (or Responses items), not a request: it is written back as one. */
  list?: boolean;
  /**
   * The request field through which the conversation continues context the provider stores (an OpenAI Responses
   * request's `previous_response_id` or `conversation`), set when reading such a request: it holds only the new
   * items, and the history the model sees is upstream.
   */
  storedContext?: string;
  /**
   * What the format keeps to write the input back as it was, such as the lines of a Claude Code session (kept
   * lines are written unchanged). Opaque outside the format.
   */
  source?: unknown;
}

/** Reads and writes one format. */
export interface ConversationFormat {
  name: FormatName;
  /** Converts parsed input (a JSON value, or the text for line formats) to core messages. */
  read(input: unknown): Promise<Conversation> | Conversation;
  /**
   * Serializes core messages in this format. `input` is the conversation read in this same format, if any:
   * its envelope, shape and source are kept; without it (a conversion from another format) the format's
   * plain shape is written.
   */
  write(messages: readonly Message[], input: Conversation | undefined): Promise<string> | string;
}

/** Whether `value` is a non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
