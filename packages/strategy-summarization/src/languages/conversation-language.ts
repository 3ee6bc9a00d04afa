import { compactionMetadataOf, type Message } from '@compaction/core';
import { languageEvidence } from './detect-language.js';
import type { SummaryLanguageCode } from './summary-languages.js';

/**
 * Blocks that agents' harnesses write into user messages (reminders, environment, command output): what
 * the user wrote is around them.
 */
const harnessBlocks =
  /<(system-reminder|environment_context|user_instructions|returncode|output|warning|local-command-stdout|local-command-stderr|command-name|command-message|command-args|ide_[\w-]+)>[\s\S]*?<\/\1>/g;

/** Characters of user text read: the opening request and the newest messages, half each. */
const readCharacters = 8_000;

/**
 * Most words of evidence one message gives: a long pasted English log, or one note a harness adds in English,
 * does not outweigh the requests the user wrote in their own language.
 */
const messageWords = 12;

/**
 * The language the user writes in: each user message read as {@link detectLanguage} reads a text, without tool
 * results, the system prompt, summaries and markers, or the blocks harnesses add to user messages; every
 * message counts its evidence up to a cap, and the language with the most wins (English when none shows one,
 * a language other than English when one is level with it, since English is what tools and harnesses add).
 * It reads the opening request and the newest user messages, a bounded amount of each, so it costs the same on
 * any length of history, and it stays the same from one compaction to the next while the user's language does.
 */
export function conversationLanguage(messages: readonly Message[]): SummaryLanguageCode {
  const texts = messages
    .filter((message) => message.role === 'user' && !isSummaryOrMarker(message))
    .map((message) => userTextOf(message))
    .filter((text) => text.length > 0);
  const [first, ...rest] = texts;
  const read = first === undefined ? [] : [first.slice(0, readCharacters / 2)];
  let room = readCharacters / 2;
  for (let index = rest.length - 1; index >= 0 && room > 0; index--) {
    const text = rest[index]!.slice(0, room);
    read.push(text);
    room -= text.length;
  }
  const totals = new Map<SummaryLanguageCode, number>();
  for (const text of read) {
    const evidence = languageEvidence(text);
    if (evidence === undefined) continue;
    const words = Math.min(evidence.words, messageWords);
    totals.set(evidence.language, (totals.get(evidence.language) ?? 0) + words);
  }
  const ranked = [...totals].sort(
    (left, right) => right[1] - left[1] || Number(left[0] === 'en') - Number(right[0] === 'en'),
  );
  return ranked[0]?.[0] ?? 'en';
}

function userTextOf(message: Message): string {
  const text = message.content
    .map((part) => (part.type === 'text' ? part.text.slice(0, readCharacters) : ''))
    .join('\n');
  return text.replace(harnessBlocks, ' ').trim();
}

function isSummaryOrMarker(message: Message): boolean {
  const kind = compactionMetadataOf(message)?.kind;
  return kind === 'summary' || kind === 'marker';
}
