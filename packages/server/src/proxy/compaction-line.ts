import type { CompactionEvent } from '@compaction/core';
import { stagesOf } from '../compaction-stages.js';
import type { ArchiveOutcome } from './proxy-archive.js';

/**
 * One line about a compaction, with no header, key or message text in it. Archiving, it names the store's
 * session the removed text was archived in, which `compaction recall --session` and `compaction mcp --session`
 * take.
 */
export function compactionLine(
  key: string,
  event: CompactionEvent,
  served?: number,
  archived?: ArchiveOutcome,
): string {
  const stages = stagesOf(event).map((stage) => stage.name);
  const strategy = event.strategy === 'pipeline' ? `pipeline: ${stages.join(', ')}` : event.strategy;
  // A named conversation shows its own name; a hashed one, the first characters of its hash.
  const shown = key.startsWith('named:')
    ? key.slice('named:'.length)
    : key.slice(key.indexOf(':') + 1, key.indexOf(':') + 9);
  const details = [`${strategy}`, `trigger ${event.trigger}`];
  if (served !== undefined)
    details.push(`the previous prefix served ${served} request${served === 1 ? '' : 's'}`);
  if (archived !== undefined) details.push(archiveNote(archived));
  return (
    `compaction proxy: conversation ${shown}: ${event.tokensBefore} → ${event.tokensAfter} tokens ` +
    `(${details.join('; ')})`
  );
}

function archiveNote({ items, stored, sessionId }: ArchiveOutcome): string {
  const counted = `${items} item${items === 1 ? '' : 's'}`;
  if (!stored) return `${counted} not archived, the store refused them (session ${sessionId})`;
  return `${counted} archived in session ${sessionId}`;
}
