import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWhenStale } from '../../../../config/build-when-stale.js';

/** Builds `dist/` before the end-to-end tests when it is missing or older than the sources. */
export default function setup(): void {
  buildWhenStale(join(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'bin.js');
}
