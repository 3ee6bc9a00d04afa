import type { Conversation } from './conversation-format.js';

/**
 * The field through which a conversation continues context the provider stores (`previous_response_id`, or a
 * `conversation` its items are added to, in an OpenAI Responses request), or `undefined`. Such a request holds
 * only the new items: the history the model sees is upstream, so the request is not compacted. Read with the
 * request, by `@compaction/provider-openai`'s `storedContextFields`.
 */
export function storedContextField(conversation: Conversation): string | undefined {
  return conversation.format === 'openai-responses' ? conversation.storedContext : undefined;
}

/** The `storedContext` option of `compactMessages` for a conversation: set when it continues stored context. */
export function withStoredContext(conversation: Conversation): { storedContext?: string } {
  const field = storedContextField(conversation);
  return field === undefined ? {} : { storedContext: field };
}
