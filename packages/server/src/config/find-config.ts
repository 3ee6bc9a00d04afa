import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The config file name the CLI looks for. */
export const configFileName = 'compaction.config.json';

/** The nearest `compaction.config.json` in `directory` or an ancestor, or `undefined`. */
export function findConfigFile(directory: string): string | undefined {
  let current = resolve(directory);
  for (;;) {
    const candidate = join(current, configFileName);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}
