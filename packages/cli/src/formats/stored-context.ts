import { storedContextFields } from '@compaction/provider-openai';
import type { Conversation } from './conversation-format.js';

/**
 * The field through which a conversation continues context the provider stores (`previous_response_id`, or a
 * `conversation` its items are added to, in an OpenAI Responses request), or `undefined`. Such a request holds
 * only the new items: the history the model sees is upstream, so the request is not compacted.
 */
export function storedContextField(conversation: Conversation): string | undefined {
  if (conversation.format !== 'openai-responses') return undefined;
  return storedContextFields(conversation.envelope)[0];
}

/** The `storedContext` option of `compactMessages` for a conversation: set when it continues stored context. */
export function withStoredContext(conversation: Conversation): { storedContext?: string } {
  const field = storedContextField(conversation);
  return field === undefined ? {} : { storedContext: field };
}
