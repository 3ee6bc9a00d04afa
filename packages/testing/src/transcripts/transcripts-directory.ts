import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The environment variable that names the transcripts folder. */
export const transcriptsVariable = 'COMPACTION_TRANSCRIPTS';

/**
 * The folder of shared real transcripts: `$COMPACTION_TRANSCRIPTS` when set, otherwise the first
 * `shared/fixtures/transcripts` found beside the working directory or one of its ancestors (the repository
 * sits next to `shared/`). `undefined` when there is none.
 */
export function transcriptsDirectory(start: string = process.cwd()): string | undefined {
  const configured = process.env[transcriptsVariable];
  if (configured) return existsSync(configured) ? resolve(configured) : undefined;
  let directory = resolve(start);
  for (;;) {
    const candidate = join(directory, 'shared', 'fixtures', 'transcripts');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/** The message a test prints when it skips for want of transcripts. */
export const missingTranscriptsMessage = `no real transcripts: set ${transcriptsVariable} or place shared/fixtures/transcripts beside the repository`;
