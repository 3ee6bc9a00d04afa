import type { CompactionEvent, Message, TokenCounter } from '@compaction/core';

/** Token totals by role, for the before/after table. */
function tokensByRole(messages: readonly Message[], counter: TokenCounter): Record<string, number> {
  const totals: Record<string, number> = { system: 0, user: 0, assistant: 0, tool: 0 };
  for (const message of messages)
    totals[message.role] = (totals[message.role] ?? 0) + counter.countMessage(message);
  return totals;
}

/** A plain-text before/after report of one compaction. */
export function formatReport(
  before: readonly Message[],
  after: readonly Message[],
  event: CompactionEvent,
  counter: TokenCounter,
): string {
  const beforeRoles = tokensByRole(before, counter);
  const afterRoles = tokensByRole(after, counter);
  const row = (label: string, left: number, right: number) =>
    `  ${label.padEnd(12)}${String(left).padStart(10)}${String(right).padStart(10)}${`${Math.round((100 * right) / Math.max(left, 1))}%`.padStart(8)}`;
  return [
    `Compacted with "${event.strategy}" (trigger: ${event.trigger}, round ${event.round}) in ${event.durationMs.toFixed(1)} ms`,
    '',
    `  ${''.padEnd(12)}${'before'.padStart(10)}${'after'.padStart(10)}${'kept'.padStart(8)}`,
    row('messages', event.messagesBefore, event.messagesAfter),
    row('tokens', event.tokensBefore, event.tokensAfter),
    ...Object.keys(beforeRoles).map((role) => row(`  ${role}`, beforeRoles[role]!, afterRoles[role] ?? 0)),
  ].join('\n');
}
