import {
  type CompactionConfig,
  compactionConfigSchema,
  InvalidOptionsError,
  type StrategyRegistry,
  validateOptions,
} from '@compaction/core';
import { CliError } from '../errors/cli-error.js';

/**
 * Checks a config against the JSON Schema of the registry's strategies; a config that does not match is a
 * config error (exit code 2) naming every issue, after `origin` (the file it came from) when given.
 */
export function validateConfig(
  config: unknown,
  registry: StrategyRegistry,
  origin?: string,
): asserts config is CompactionConfig {
  try {
    validateOptions(compactionConfigSchema(registry), config, 'config');
  } catch (error) {
    if (!InvalidOptionsError.isInstance(error)) throw error;
    const details = error.issues.map((issue) => `${issue.path || '(root)'} ${issue.message}`).join('; ');
    const prefix = origin === undefined ? '' : `${origin}: `;
    throw new CliError({ reason: 'config', message: `${prefix}invalid config: ${details}`, cause: error });
  }
}
