import type { JSONValue, Message } from '@compaction/core';
import { normalizeText } from './probe.js';

/** How the input of a tool call is read: appended to `into` as one or more texts. */
export type InputReader = (input: JSONValue, into: string[]) => void;

/** A tool input as a tokenizer sees it in a request: its JSON. */
export const inputAsJson: InputReader = (input, into) => {
  into.push(JSON.stringify(input) ?? '');
};

/**
 * Everything a model reads in messages, one text per piece, in order: text, reasoning, tool names and inputs
 * (read by `readInput`), tool outputs and text files. Empty pieces are left out. The one walk over message
 * parts shared by the evaluation's probes and the token benchmark's transcript texts.
 */
export function messageTexts(messages: readonly Message[], readInput: InputReader = inputAsJson): string[] {
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
          readInput(part.input, pieces);
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
  return pieces.filter((piece) => piece.length > 0);
}

/**
 * Everything a model would read in a context, as one normalized string, with every string or number in the
 * tool inputs as raw values, not JSON, so a quoted command still reads as typed. Probes are looked up in it.
 */
export function contextText(messages: readonly Message[]): string {
  return normalizeText(messageTexts(messages, collectScalars).join('\n'));
}

/** Appends every string and number inside a JSON value, depth first. */
export function collectScalars(value: JSONValue, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (typeof value === 'number') into.push(String(value));
  else if (Array.isArray(value)) for (const item of value) collectScalars(item, into);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) if (item !== undefined) collectScalars(item, into);
}
