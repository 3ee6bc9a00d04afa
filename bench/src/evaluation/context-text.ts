import type { JSONValue, Message } from '@compaction/core';
import { normalizeText } from './probe.js';

/**
 * Everything a model would read in a context, as one normalized string: text, reasoning, the tool names and
 * every string or number in the tool inputs (as raw values, not JSON, so a quoted command still reads as
 * typed), tool outputs and text files. Probes are looked up in it.
 */
export function contextText(messages: readonly Message[]): string {
  const pieces: string[] = [];
  for (const message of messages) {
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          pieces.push(part.text);
          break;
        case 'tool-call':
          pieces.push(part.toolName);
          collectScalars(part.input, pieces);
          break;
        case 'tool-result':
          if (typeof part.output === 'string') pieces.push(part.output);
          else
            for (const item of part.output) {
              if (item.type === 'text') pieces.push(item.text);
              else if (item.type === 'file' && item.mediaType.startsWith('text/')) pieces.push(item.data);
            }
          break;
        case 'file':
          if (part.mediaType.startsWith('text/')) pieces.push(part.data);
          break;
        default:
          break;
      }
    }
  }
  return normalizeText(pieces.join('\n'));
}

/** Appends every string and number inside a JSON value, depth first. */
export function collectScalars(value: JSONValue, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (typeof value === 'number') into.push(String(value));
  else if (Array.isArray(value)) for (const item of value) collectScalars(item, into);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) if (item !== undefined) collectScalars(item, into);
}
