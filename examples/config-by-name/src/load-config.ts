import { readFileSync } from 'node:fs';
import { type CompactionConfig, compactionConfigSchema, validateOptions } from '@compaction/core';

/**
 * Reads and validates a config file against the published config schema. `validateOptions` throws
 * `InvalidOptionsError` naming every problem's path, so a typo in the file is reported before anything runs.
 */
export function loadConfig(url: URL): CompactionConfig {
  const value: unknown = JSON.parse(readFileSync(url, 'utf8'));
  return validateOptions<CompactionConfig>(compactionConfigSchema(), value, 'config');
}
