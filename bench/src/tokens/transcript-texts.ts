import type { Message } from '@compaction/core';
import { loadTranscripts } from '@compaction/testing/transcripts';

/** The texts of one real transcript's messages, as a tokenizer would see them. */
export interface TranscriptTexts {
  name: string;
  texts: string[];
}

/** The texts of every shared real transcript; empty when the transcripts folder is absent. */
export function loadTranscriptTexts(): TranscriptTexts[] {
  return loadTranscripts().map((transcript) => ({
    name: transcript.name,
    texts: transcript.messages.flatMap(messageTexts),
  }));
}

/** The texts of a core message: text, reasoning, tool names and JSON inputs, tool outputs. */
export function messageTexts(message: Message): string[] {
  const texts: string[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
      case 'reasoning':
        texts.push(part.text);
        break;
      case 'tool-call':
        texts.push(part.toolName, JSON.stringify(part.input) ?? '');
        break;
      case 'tool-result':
        if (typeof part.output === 'string') texts.push(part.output);
        else for (const item of part.output) if (item.type === 'text') texts.push(item.text);
        break;
      default:
        break;
    }
  }
  return texts.filter((text) => text.length > 0);
}
