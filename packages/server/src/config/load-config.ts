import { readFileSync } from 'node:fs';
import type { CompactionConfig, StrategyRegistry } from '@compaction/core';
import { parseJsonWithLocation } from '@compaction/formats';
import { CliError } from '../errors/cli-error.js';
import { findConfigFile } from './find-config.js';
import { validateConfig } from './validate-config.js';

/** A config read from a file, or `undefined` with no path when there is none. */
export interface LoadedConfig {
  config?: CompactionConfig;
  path?: string;
}

/**
 * Reads the config: the `--config` path when given, otherwise the nearest `compaction.config.json` upward
 * from `directory`. Validated against the JSON Schema of the registry's strategies.
 */
export function loadConfig(
  registry: StrategyRegistry,
  options: { path?: string; directory: string },
): LoadedConfig {
  const path = options.path ?? findConfigFile(options.directory);
  if (path === undefined) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new CliError({ reason: 'config', message: `cannot read config ${path}: ${reason}`, cause: error });
  }
  const parsed = parseJsonWithLocation(text);
  if (!parsed.ok) {
    const { line, column } = parsed.location;
    throw new CliError({
      reason: 'config',
      message: `${path}: invalid JSON at line ${line}, column ${column}: ${parsed.reason}`,
    });
  }
  validateConfig(parsed.value, registry, path);
  return { config: parsed.value as CompactionConfig, path };
}
