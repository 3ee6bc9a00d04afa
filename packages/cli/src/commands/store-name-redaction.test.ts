import { startTestPostgres } from '@compaction/testing/postgres-server';
import { afterAll, expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { example, type LooseJson } from '../__fixtures__/run-binary.js';
import { runCommand } from '../__fixtures__/run-command.js';
import { startServer } from '../__fixtures__/start-server.js';

// Through the commands and the built binary, on a real PostgreSQL server (Debian's postgresql package, or
// PATH) on a throwaway folder; skipped with one line outside CI when none can be started. Not on the Node 22
// compatibility run: what is printed is string work the Node 20 run has checked, and the servers' start on
// Node 22 is tested by their own tests.
const postgres =
  process.env.COMPACTION_COMPATIBILITY_RUN === undefined ? await startTestPostgres() : undefined;
afterAll(() => postgres?.stop());

const secrets = ['user-part-secret', 'query-secret'];

/** The database's connection string with a password in the user part and another in the query string. */
function withPasswords(url: string): string {
  const parsed = new URL(url);
  parsed.password = secrets[0]!;
  parsed.searchParams.set('password', secrets[1]!);
  return parsed.toString();
}

function expectNoSecret(text: string, what: string): void {
  for (const secret of secrets) expect(text, what).not.toContain(secret);
}

describeOnFullRun('the database name that commands print', () => {
  it.skipIf(postgres === undefined)(
    'never shows a password, in the user part or the query string',
    async () => {
      const url = withPasswords(postgres!.createDatabase());

      const migrate = await runCommand(['migrate', '--store', url]);
      expect(migrate.code, migrate.stderr).toBe(0);
      expect(migrate.stderr).toMatch(
        /^postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/\w+\?password=\*\*\*: applied schema/,
      );
      expectNoSecret(migrate.stdout + migrate.stderr, 'migrate');

      const compact = await runCommand(['compact', example, '--store', url, '-o', '/dev/null']);
      expect(compact.code, compact.stderr).toBe(0);
      expect(compact.stderr).toMatch(/archived \d+ items in postgres:\/\/postgres:\*\*\*@/);
      expect(compact.stderr).toContain('compaction recall --store');
      expectNoSecret(compact.stdout + compact.stderr, 'compact --store');

      const json = await runCommand(['compact', example, '--store', url, '--json', '-o', '/dev/null']);
      const report: LooseJson = JSON.parse(json.stdout);
      expect(report.store).toMatch(/^postgres:\/\/postgres:\*\*\*@.*\?password=\*\*\*$/);
      expectNoSecret(json.stdout + json.stderr, 'compact --store --json');

      for (const command of ['serve', 'proxy'] as const) {
        const server = await startServer(['--store', url], {}, undefined, command);
        const shown = server.stderr();
        await server.stop();
        expect(shown, command).toMatch(/in PostgreSQL postgres:\/\/postgres:\*\*\*@.*\?password=\*\*\*/);
        expectNoSecret(shown, command);
      }
    },
  );
});
