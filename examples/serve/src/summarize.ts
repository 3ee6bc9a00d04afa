import type { CompactionEvent } from '@compaction/core';

/** One line for a compaction event: what ran, why, and what it saved (the full event has much more). */
export function describeEvent(event: CompactionEvent): string {
  const stages = Array.isArray(event.details?.stages)
    ? event.details.stages.map((stage) => (stage as { name?: string }).name).join(' → ')
    : event.strategy;
  return (
    `round ${event.round} (${event.trigger}) ${stages}: ${event.tokensBefore} → ${event.tokensAfter} tokens, ` +
    `${event.messagesBefore} → ${event.messagesAfter} messages`
  );
}

/** A response body to print: the conversation and times left out, and an event reduced to one line. */
export function summarizeBody(body: Record<string, unknown> | undefined): unknown {
  if (body === undefined) return '(no body)';
  const {
    conversation: _conversation,
    createdAt: _createdAt,
    lastActiveAt: _lastActiveAt,
    expiresAt: _expiresAt,
    event,
    ...rest
  } = body;
  return event === undefined ? rest : { ...rest, event: describeEvent(event as CompactionEvent) };
}
