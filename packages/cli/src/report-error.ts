import {
  CompactionError,
  InvalidOptionsError,
  ProviderNotFoundError,
  StrategyNotFoundError,
} from '@compaction/core';
import { FormatError } from '@compaction/formats';
import { apiKeyVariables, CliError, cliErrorOf, exitCodes } from '@compaction/server';
import type { CliIO } from './cli-io.js';
import { didYouMean } from './did-you-mean.js';
import { jsonDocumentVersion } from './output/json-document-version.js';

/** What `--json` prints on standard error when a command fails: one document, as schemas/error.schema.json. */
export interface ErrorDocument {
  version: typeof jsonDocumentVersion;
  error: {
    /** Stable: `cli/usage`, `cli/input`, `core/budget-unreachable`... Scripts branch on it, not on the message. */
    code: string;
    message: string;
    exitCode: number;
  };
}

/**
 * Prints an error the way the CLI does and returns its exit code: one line on standard error, or with `json`
 * one {@link ErrorDocument}.
 */
export function reportError(error: unknown, io: CliIO, { json = false }: { json?: boolean } = {}): number {
  // The reader went away (`compaction count big.json | head`): nothing left to tell.
  if ((error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE') return exitCodes.success;
  const { tag, ...described } = describeError(error);
  if (json) {
    const document: ErrorDocument = { version: jsonDocumentVersion, error: described };
    io.stderr.write(`${JSON.stringify(document)}\n`);
  } else {
    io.stderr.write(`compaction: ${described.message}${tag ? ` [${described.code}]` : ''}\n`);
  }
  return described.exitCode;
}

function describeError(error: unknown): ErrorDocument['error'] & { tag: boolean } {
  // A conversation the formats could not read is told as the CLI's own input error, code and exit code.
  if (FormatError.isInstance(error)) return describeError(cliErrorOf(error));
  if (CliError.isInstance(error)) {
    return { code: error.code, message: error.message, exitCode: error.exitCode, tag: false };
  }
  if (CompactionError.isInstance(error)) {
    const exitCode =
      error.code === 'core/invalid-messages'
        ? exitCodes.badInput
        : error.code === 'core/budget-unreachable'
          ? exitCodes.unreachable
          : exitCodes.failure;
    const message = notFoundMessage(error) ?? pipelineMessage(error) ?? error.message;
    return { code: error.code, message, exitCode, tag: true };
  }
  return {
    code: 'cli/unexpected',
    message: `unexpected error (please report it): ${(error as Error)?.stack ?? String(error)}`,
    exitCode: exitCodes.unexpected,
    tag: false,
  };
}

/**
 * A strategy or provider name that is neither registered nor installed, in the CLI's words: the closest real
 * name, the names a user can pick (`pipeline` is what `--strategy a,b` builds, not a name to give alone), and
 * the package that was looked for, which is not said to exist.
 */
function notFoundMessage(error: CompactionError): string | undefined {
  let label: string;
  let names: string[];
  if (StrategyNotFoundError.isInstance(error)) {
    label = 'strategy';
    names = error.registeredNames.filter((name) => name !== 'pipeline');
  } else if (ProviderNotFoundError.isInstance(error)) {
    label = 'provider';
    names = [...new Set([...Object.keys(apiKeyVariables), ...error.registeredNames])];
  } else {
    return undefined;
  }
  const { requestedName, packageName } = error;
  // What core adds after its own advice (where it looked for the package) is kept as it says it.
  const more = /to use it\.(.*)$/s.exec(error.message)?.[1]?.trim() ?? '';
  const listed =
    names.length === 0
      ? ''
      : `; the ${label === 'strategy' ? 'strategies' : 'providers'} are ${names.join(', ')}`;
  const several = label === 'strategy' ? ' (several in order: --strategy a,b)' : '';
  return (
    `no ${label} named "${requestedName}"${didYouMean(requestedName, names)}${listed}${several}, ` +
    `and no installed package ${packageName} provides it${more === '' ? '' : `. ${more}`}`
  );
}

/**
 * `pipeline` named without its stages (`--strategy pipeline`): it is what several names make, not a strategy of
 * its own to pick.
 */
function pipelineMessage(error: CompactionError): string | undefined {
  if (!InvalidOptionsError.isInstance(error) || error.subject !== 'strategy "pipeline"') return undefined;
  if (!error.issues.some((issue) => issue.path === 'stages')) return undefined;
  return (
    '"pipeline" is not a strategy to name alone: name its stages in order instead ' +
    '(--strategy tool-result-truncation,sliding-window), or give a config entry ' +
    '{"name": "pipeline", "options": {"stages": [...]}}'
  );
}
