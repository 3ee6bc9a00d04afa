import { type ParseArgsConfig, parseArgs } from 'node:util';
import { usageError } from '@compaction/server';
import type { CliIO } from './cli-io.js';
import { didYouMean } from './did-you-mean.js';

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

/** Whether `--help` was given; then the command's help is printed, and the command has nothing else to do. */
export function printedHelp(values: { help?: boolean | undefined }, help: string, io: CliIO): boolean {
  if (values.help !== true) return false;
  io.stdout.write(help);
  return true;
}

/** Flags that each take one value, by name: most of a command's flags. */
export function valueFlags<const Name extends string>(...names: Name[]): Record<Name, { type: 'string' }> {
  return Object.fromEntries(names.map((name) => [name, { type: 'string' }])) as Record<
    Name,
    { type: 'string' }
  >;
}

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
      `${command}: ${message.charAt(0).toLowerCase()}${message.slice(1)}${suggestedFlag(error, options)} ` +
        `(see compaction ${command} --help)`,
    );
  }
}

/** The real flag closest to an unknown one, as ` (did you mean "--flag"?)`, or nothing. */
function suggestedFlag(error: unknown, options: NonNullable<ParseArgsConfig['options']>): string {
  if ((error as NodeJS.ErrnoException).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return '';
  const typed = /'(--[^'=]+)/.exec((error as Error).message)?.[1];
  if (typed === undefined) return '';
  return didYouMean(
    typed,
    Object.keys(options).map((name) => `--${name}`),
  );
}
