import { loadTranscripts } from '@compaction/testing/transcripts';
import { messageTexts } from '../evaluation/context-text.js';

/** The texts of one real transcript's messages, as a tokenizer would see them. */
export interface TranscriptTexts {
  name: string;
  texts: string[];
}

/** The texts of every shared real transcript; empty when the transcripts folder is absent. */
export function loadTranscriptTexts(): TranscriptTexts[] {
  return loadTranscripts().map((transcript) => ({
    name: transcript.name,
    texts: messageTexts(transcript.messages),
  }));
}
