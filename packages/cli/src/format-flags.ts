import { type FormatName, formatNames } from '@compaction/formats';
import { didYouMean } from './did-you-mean.js';
import { usageError } from './errors/cli-error.js';

/** Checks a `--from`/`--to` value. */
export function parseFormatName(text: string | undefined, flag: string): FormatName | undefined {
  if (text === undefined) return undefined;
  if ((formatNames as readonly string[]).includes(text)) return text as FormatName;
  throw usageError(
    `${flag} must be one of ${formatNames.join(', ')}, got "${text}"${didYouMean(text, formatNames)}`,
  );
}
