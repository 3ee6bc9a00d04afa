import type { ArchivedItem, Message, Part } from '@compaction/core';
import { archivedToolInput, archivedToolResult, recallHandlesIn } from './archive-item.js';
import { toolResultText } from './render-archived-messages.js';

/**
 * The archived items of the parts a strategy replaced: `changed` is `original` with some messages replaced
 * (same length, same order), and each replaced tool result or tool-call input whose replacement names its
 * handle is archived as it was ({@link archivedToolResult}, {@link archivedToolInput}). Computed from the
 * output rather than collected while trying candidates, so what a fit rejected is never listed.
 */
export function archivedChanges(original: readonly Message[], changed: readonly Message[]): ArchivedItem[] {
  const items: ArchivedItem[] = [];
  original.forEach((message, index) => {
    const replacement = changed[index];
    if (replacement === undefined || replacement === message) return;
    message.content.forEach((part, partIndex) => {
      const next = replacement.content[partIndex];
      if (next === undefined || next === part) return;
      const item = archivedPart(part);
      if (item !== undefined && recallHandlesIn(partText(next)).includes(item.handle)) items.push(item);
    });
  });
  return items;
}

function archivedPart(part: Part): ArchivedItem | undefined {
  if (part.type === 'tool-result') return archivedToolResult(part);
  if (part.type === 'tool-call') return archivedToolInput(part);
  return undefined;
}

function partText(part: Part): string {
  if (part.type === 'tool-result') return toolResultText(part);
  if (part.type === 'tool-call') return JSON.stringify(part.input);
  return part.type === 'text' || part.type === 'reasoning' ? part.text : '';
}
