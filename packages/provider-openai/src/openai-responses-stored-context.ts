import { InvalidOptionsError } from '@compaction/core';

const storedContextFields = ['previous_response_id', 'conversation'] as const;

/**
 * Refuses a request of a Responses conversation that names context the API stores. The conversation sends its
 * whole context each time, so `previous_response_id` or `conversation` would have the API add the stored
 * history to it; the types leave them out, and this catches a caller who passes one anyway.
 */
export function refuseStoredContext(request: object | undefined, path: string): void {
  const fields = storedContextFields.filter((field) => (request as Record<string, unknown>)?.[field] != null);
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
