import { CliError, exitCodes } from '@compaction/server';

/**
 * The one input a command reads (a path, `-`, or none for standard input). Several are refused with exit 2
 * rather than the first taken and the others ignored without a word: each conversation gets its own run, and
 * its own report and output.
 */
export function singleInput(command: string, positionals: readonly string[]): string | undefined {
  if (positionals.length <= 1) return positionals[0];
  const shown = positionals.slice(0, 3).join(', ') + (positionals.length > 3 ? ', ...' : '');
  throw new CliError({
    reason: 'usage',
    exitCode: exitCodes.badInput,
    message:
      `${command}: one input at a time, not ${positionals.length} (${shown}); ` +
      `run it once per file, e.g. for file in *.json; do compaction ${command} "$file" ...; done`,
  });
}
