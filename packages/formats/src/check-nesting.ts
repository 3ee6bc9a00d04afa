import type { Message } from '@compaction/core';
import { inputError } from './format-error.js';
import {
  describeExcessiveNesting,
  findExcessiveNesting,
  findExcessiveNestingInJsonText,
} from './json-depth.js';

/**
 * Throws a `FormatError` of reason `input` when a parsed input nests deeper than the limit. `prefix` is the path of
 * `value` in the input; `where` names the place first (such as `line 12` of a session log).
 */
export function checkNesting(value: unknown, prefix = '', where?: string): void {
  const nesting = findExcessiveNesting(value);
  if (nesting === undefined) return;
  const message = describeExcessiveNesting({ ...nesting, path: joinPath(prefix, nesting.path) });
  throw inputError(where === undefined ? message : `${where}: ${message}`);
}

/**
 * Throws an input error when converted messages nest deeper than the limit, counting tool inputs that a
 * converter kept as JSON text (an OpenAI `arguments` string it could not take apart).
 */
export function checkMessageNesting(messages: readonly Message[]): void {
  checkNesting(messages, 'messages');
  for (const [messageIndex, message] of messages.entries()) {
    if (message.role !== 'assistant') continue;
    for (const [partIndex, part] of message.content.entries()) {
      if (part.type !== 'tool-call' || typeof part.input !== 'string') continue;
      const nesting = findExcessiveNestingInJsonText(part.input);
      if (nesting !== undefined) {
        const path = `messages[${messageIndex}].content[${partIndex}].input`;
        throw inputError(describeExcessiveNesting({ ...nesting, path: `${path} (JSON text)` }));
      }
    }
  }
}

function joinPath(prefix: string, path: string): string {
  if (prefix === '') return path;
  return path === '' || path.startsWith('[') ? `${prefix}${path}` : `${prefix}.${path}`;
}
