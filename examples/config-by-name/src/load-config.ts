import { readFileSync } from 'node:fs';
import { type CompactionConfig, parseCompactionConfig } from '@compaction/core';

/**
 * Reads and validates a config file. `parseCompactionConfig` throws `InvalidOptionsError` naming every
 * problem's path, so a typo in the file is reported before anything runs.
 */
export function loadConfig(url: URL): CompactionConfig {
  return parseCompactionConfig(JSON.parse(readFileSync(url, 'utf8')));
}
