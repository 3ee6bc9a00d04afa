import { CliError, storeLocationOf, usageError } from '@compaction/server';
import { redactConnectionString } from '@compaction/store-postgres/redact-connection-string';
import type { CliIO } from '../cli-io.js';
import { migrateHelp } from '../help.js';
import { helpFlagOptions, parseFlags, printedHelp, valueFlags } from '../parse-flags.js';

/**
 * `compaction migrate --store postgres://...`: applies the schema migrations a PostgreSQL store lacks, so a
 * deployment can migrate once before it starts its servers (each server also migrates at start).
 */
export async function migrateCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseFlags('migrate', args, { ...helpFlagOptions, ...valueFlags('store') });
  if (printedHelp(values, migrateHelp, io)) return 0;
  const location = storeLocationOf(values.store, io.cwd);
  if (location.kind !== 'postgres') {
    throw usageError(
      '--store must be a postgres:// connection string (a SQLite file migrates itself when opened)',
    );
  }
  const database = redactConnectionString(location.connectionString);
  const { migratePostgresStore, schemaVersion } = await import('@compaction/store-postgres');
  let applied: number[];
  try {
    applied = await migratePostgresStore(location.connectionString);
  } catch (error) {
    throw new CliError({
      reason: 'config',
      message: `cannot migrate: ${(error as Error).message}`,
      cause: error,
    });
  }
  io.stderr.write(
    applied.length === 0
      ? `${database} is at schema ${schemaVersion}: nothing to apply\n`
      : `${database}: applied schema ${applied.join(', ')}; now at schema ${schemaVersion}\n`,
  );
  return 0;
}
