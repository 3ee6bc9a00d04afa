import type { Message } from '@compaction/core';
import { type TranslationLanguage, taskTranslations } from './task-translations.js';

/** A transcript whose user turns were translated, with the prose lines the table did not hold. */
export interface TranslatedTranscript {
  messages: Message[];
  /** Prose lines translated. */
  translated: number;
  /** Prose lines left in English because the table has no translation for them. */
  untranslated: string[];
}

/**
 * Translates the text of every user message by {@link taskTranslations}, line by line: a line whose text
 * (without its indentation) is in the table is replaced by its translation, indentation kept. Lines inside
 * fenced code blocks, blank lines, tags (`<pr_description>`) and lines without letters are not prose and stay
 * as they are; any other line not in the table stays too and is listed in `untranslated`. Assistant and tool
 * messages are unchanged (the agent's own words and its tools' output are not the user's); the input is not
 * mutated.
 */
export function translateUserTurns(
  messages: readonly Message[],
  language: TranslationLanguage,
): TranslatedTranscript {
  const table = new Map(taskTranslations.map((line) => [line.en, line[language]]));
  let translated = 0;
  const untranslated: string[] = [];
  const translateText = (text: string) => {
    let inCode = false;
    return text
      .split('\n')
      .map((line) => {
        const trimmed = line.trim();
        if (trimmed.startsWith('```')) {
          inCode = !inCode;
          return line;
        }
        if (inCode || !isProse(trimmed)) return line;
        const translation = table.get(trimmed);
        if (translation === undefined) {
          untranslated.push(trimmed);
          return line;
        }
        translated++;
        return `${line.slice(0, line.indexOf(trimmed))}${translation}`;
      })
      .join('\n');
  };
  const result = messages.map((message): Message => {
    if (message.role !== 'user') return message;
    return {
      ...message,
      content: message.content.map((part) =>
        part.type === 'text' ? { ...part, text: translateText(part.text) } : part,
      ),
    };
  });
  return { messages: result, translated, untranslated };
}

function isProse(line: string): boolean {
  return line.length > 0 && !line.startsWith('<') && /\p{L}{2}/u.test(line);
}
