import type { ArchivedItem, ToolCallPart, ToolResultPart } from '@compaction/core';
import { toolResultText } from './render-archived-messages.js';

/**
 * The archived item for `text`, under a handle derived from the text alone: every stage of a pipeline, and
 * every round, names one text with one handle, without sharing any state. 53 bits of hash keep two texts of
 * one session from sharing a handle (about one chance in 10^9 at 10,000 items).
 */
export function archiveItem(label: string, text: string): ArchivedItem {
  return { handle: archiveHandle(text), label, text };
}

/** The words a placeholder uses to name an item, which models read as a call to make: `recall "k3j9x0a2m1q"`. */
export function recallHint(item: Pick<ArchivedItem, 'handle'>): string {
  return `recall "${item.handle}"`;
}

/**
 * A hint that costs at least as many tokens as any real one, for the budgets that must pay for a hint
 * before the text it names is known: handles alternating digits and letters are the costliest to count.
 */
export const costliestRecallHint = recallHint({ handle: '0a0a0a0a0a0' });

/** The archived item of a tool result: its whole text ({@link toolResultText}), labelled `<tool> output`. */
export function archivedToolResult(part: ToolResultPart): ArchivedItem {
  return archiveItem(`${part.toolName} output`, toolResultText(part));
}

/** The archived item of a tool call's input: the input as JSON, labelled `<tool> input`. */
export function archivedToolInput(part: ToolCallPart): ArchivedItem {
  return archiveItem(`${part.toolName} input`, JSON.stringify(part.input));
}

/**
 * The handles the recall hints in `text` name, in order of appearance, each once; hints inside JSON text
 * (a tool call's input), whose quotes are escaped, count too.
 */
export function recallHandlesIn(text: string): string[] {
  const hints = text.matchAll(/recall \\?"([A-Za-z0-9_-]{1,32})\\?"/g);
  return [...new Set(Array.from(hints, (match) => match[1] as string))];
}

/** cyrb53, a fast 53-bit string hash, in base 36 (11 characters at most). */
function archiveHandle(text: string): string {
  let first = 0xdeadbeef;
  let second = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 2654435761);
    second = Math.imul(second ^ code, 1597334677);
  }
  first = Math.imul(first ^ (first >>> 16), 2246822507) ^ Math.imul(second ^ (second >>> 13), 3266489909);
  second = Math.imul(second ^ (second >>> 16), 2246822507) ^ Math.imul(first ^ (first >>> 13), 3266489909);
  return (4294967296 * (2097151 & second) + (first >>> 0)).toString(36).padStart(11, '0');
}
