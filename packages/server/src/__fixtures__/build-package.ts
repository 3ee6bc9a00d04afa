import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWhenStale } from '../../../../config/build-when-stale.js';

/**
 * Builds `dist/` before the tests when it is missing or older than the sources: a compaction thread runs
 * the built worker (`dist/workers/compaction-worker.js`), not the TypeScript source.
 */
export default function setup(): void {
  buildWhenStale(join(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'workers/compaction-worker.js');
}
