import { type FormatName, formatNames } from '@compaction/formats';
import { usageError } from '@compaction/server';
import { didYouMean } from './did-you-mean.js';

/** Checks a `--from`/`--to` value. */
export function parseFormatName(text: string | undefined, flag: string): FormatName | undefined {
  if (text === undefined) return undefined;
  if ((formatNames as readonly string[]).includes(text)) return text as FormatName;
  throw usageError(
    `${flag} must be one of ${formatNames.join(', ')}, got "${text}"${didYouMean(text, formatNames)}`,
  );
}
