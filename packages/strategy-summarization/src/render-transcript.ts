import type { Message, Part } from '@compaction/core';
import { truncateText } from '@compaction/strategy-kit';
import { cutToTokens } from './shorten-text.js';

/** Settings of {@link renderTranscript}. */
export interface RenderTranscriptSettings {
  /** Characters of one tool output or tool input kept; longer ones keep their beginning and end. */
  toolOutputCharacters: number;
  /** Most tokens one message's rendering may take (a single huge message is cut to it). */
  entryTokens: number;
  countText: (text: string) => number;
}

/**
 * Renders messages as plain-text entries for the summarizer, one per message: `[user]`, `[assistant]`,
 * `[tool call name]` and `[tool result name]` blocks. Tool outputs and inputs are shortened, reasoning is left
 * out (it is the model's scratch work, and its signatures mean nothing to another model), images and files
 * become one-line notes, and an entry that alone would overflow the summarizer is cut.
 */
export function renderTranscript(messages: readonly Message[], settings: RenderTranscriptSettings): string[] {
  return messages.map((message) => {
    const lines = [`[${message.role}]`];
    for (const part of message.content) {
      const rendered = renderPart(part, settings.toolOutputCharacters);
      if (rendered !== undefined) lines.push(rendered);
    }
    return cutToTokens(lines.join('\n'), settings.entryTokens, settings.countText);
  });
}

function renderPart(part: Part, characters: number): string | undefined {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'reasoning':
      return undefined;
    case 'image':
      return '[image]';
    case 'file':
      return `[file${part.filename === undefined ? '' : ` ${part.filename}`} (${part.mediaType})]`;
    case 'tool-call':
      return `[tool call ${part.toolName}] ${truncateText(JSON.stringify(part.input) ?? '', characters)}`;
    case 'tool-result': {
      const output =
        typeof part.output === 'string'
          ? part.output
          : part.output.map((item) => renderPart(item, characters) ?? '').join('\n');
      const label = `[tool result ${part.toolName}${part.isError ? ', error' : ''}]`;
      return `${label}\n${truncateText(output, characters)}`;
    }
  }
}
