import { InvalidOptionsError } from '@compaction/core';

/**
 * The fields of a Responses request body that continue context the API stores (`previous_response_id`, or a
 * `conversation` its items are added to), in that order: empty for a request that carries its whole context.
 * Such a request holds only the new items, so it cannot be compacted as if they were the history.
 */
export function storedContextFields(
  request: object | undefined,
): ('previous_response_id' | 'conversation')[] {
  const body = (request ?? {}) as Record<string, unknown>;
  return (['previous_response_id', 'conversation'] as const).filter((field) => body[field] != null);
}

/**
 * Refuses a request of a Responses conversation that names context the API stores. The conversation sends its
 * whole context each time, so `previous_response_id` or `conversation` would have the API add the stored
 * history to it; the types leave them out, and this catches a caller who passes one anyway.
 */
export function refuseStoredContext(request: object | undefined, path: string): void {
  const fields = storedContextFields(request);
  if (fields.length === 0) return;
  throw new InvalidOptionsError({
    subject: 'OpenAI Responses conversation',
    issues: fields.map((field) => ({
      path: `${path}.${field}`,
      message:
        'the conversation sends its whole context each time; a request continuing stored context would repeat it',
    })),
  });
}
