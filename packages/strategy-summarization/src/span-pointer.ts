import type { Message } from '@compaction/core';
import { isSummary } from '@compaction/strategy-kit';

/** Characters of a message's beginning quoted to point at it. */
const excerptCharacters = 60;

/** The beginning of a message as the model reads it, in one line: its text, else its first call or result. */
export function excerptOf(message: Message): string {
  const pieces = message.content.map((part) => {
    switch (part.type) {
      case 'text':
        return part.text;
      case 'tool-call':
        return `[tool call ${part.toolName}]`;
      case 'tool-result':
        return typeof part.output === 'string'
          ? part.output
          : part.output.map((item) => (item.type === 'text' ? item.text : `[${item.type}]`)).join(' ');
      case 'reasoning':
        return '';
      default:
        return `[${part.type}]`;
    }
  });
  const line = pieces.join(' ').replace(/\s+/g, ' ').trim();
  return line.length <= excerptCharacters ? line : `${line.slice(0, excerptCharacters).trimEnd()}…`;
}

/**
 * Names, in words the model can follow without the messages being repeated, the part of the conversation
 * above that the summary replaces: how many messages, where they begin and end, and what stays.
 */
export function spanPointer(conversation: readonly Message[], evicted: readonly Message[]): string {
  const first = evicted[0];
  const last = evicted.at(-1);
  if (first === undefined || last === undefined) return '(no messages)';
  const after = conversation.length - 1 - conversation.lastIndexOf(last);
  const describe = (message: Message) => `the ${message.role} message that begins “${excerptOf(message)}”`;
  const ends = first === last ? describe(first) : `${describe(first)} through ${describe(last)}`;
  return (
    `Not repeated here: the ${evicted.length} message${evicted.length === 1 ? '' : 's'} of this conversation ` +
    `above, from ${ends}. Only they are removed. The system prompt, the original task, any earlier summary and ` +
    `the ${after} message${after === 1 ? '' : 's'} after them stay in the context verbatim: do not summarize those.`
  );
}

/** Points at the earlier summary in the conversation above, or gives its text when the conversation does not show it. */
export function previousSummaryPointer(
  conversation: readonly Message[],
  previousSummary: string | undefined,
): string | undefined {
  if (previousSummary === undefined) return undefined;
  // Several summaries are merged as one joined text, which no single message shows: it is then given whole.
  const shown = conversation
    .filter(isSummary)
    .find((message) =>
      message.content.some((part) => part.type === 'text' && part.text.includes(previousSummary)),
    );
  if (shown === undefined) return previousSummary;
  return `Not repeated here: it is in the conversation above, in the ${shown.role} message that begins “${excerptOf(shown)}”.`;
}
