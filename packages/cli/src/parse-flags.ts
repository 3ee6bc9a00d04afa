import { type ParseArgsConfig, parseArgs } from 'node:util';
import { usageError } from './errors/cli-error.js';

/** Flags every compacting command accepts. */
export const compactionFlagOptions = {
  config: { type: 'string', short: 'c' },
  strategy: { type: 'string', short: 's' },
  'context-window': { type: 'string' },
  trigger: { type: 'string' },
  target: { type: 'string' },
  provider: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** Flags about the input and output format. */
export const formatFlagOptions = {
  from: { type: 'string' },
  to: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** `--help`, accepted by every command. */
export const helpFlagOptions = {
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

/**
 * `parseArgs` with strict checking, turning its errors (unknown flag, missing value) into one usage line
 * that names the command.
 */
export function parseFlags<Options extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  args: string[],
  options: Options,
): ReturnType<typeof parseArgs<{ args: string[]; options: Options; allowPositionals: true; strict: true }>> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    throw usageError(
      `${command}: ${message.charAt(0).toLowerCase()}${message.slice(1)} (see compaction ${command} --help)`,
    );
  }
}
