import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The real transcripts: `COMPACTION_TRANSCRIPTS`, else `../shared/fixtures/transcripts` from the repo root. */
export function transcriptsDirectory(): string | undefined {
  const directory =
    process.env.COMPACTION_TRANSCRIPTS ??
    fileURLToPath(new URL('../../../../../shared/fixtures/transcripts', import.meta.url));
  return existsSync(directory) ? directory : undefined;
}
