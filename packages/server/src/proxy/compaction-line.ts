import type { CompactionEvent } from '@compaction/core';
import { stagesOf } from '../compaction-stages.js';

/** One line about a compaction, with no header, key or message text in it. */
export function compactionLine(key: string, event: CompactionEvent, served?: number): string {
  const stages = stagesOf(event).map((stage) => stage.name);
  const strategy = event.strategy === 'pipeline' ? `pipeline: ${stages.join(', ')}` : event.strategy;
  // A named conversation shows its own name; a hashed one, the first characters of its hash.
  const shown = key.startsWith('named:')
    ? key.slice('named:'.length)
    : key.slice(key.indexOf(':') + 1, key.indexOf(':') + 9);
  return (
    `compaction proxy: conversation ${shown}: ${event.tokensBefore} → ${event.tokensAfter} tokens ` +
    `(${strategy}; trigger ${event.trigger}` +
    (served === undefined ? ')' : `; the previous prefix served ${served} request${served === 1 ? '' : 's'})`)
  );
}
