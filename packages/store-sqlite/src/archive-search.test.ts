import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompactionRecord } from '@compaction/core';
import { sampleCompactionRecord } from '@compaction/testing/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { schemaMigrations } from './schema.js';
import { openSqliteCompactionStore } from './sqlite-compaction-store.js';
import { type Database, SqliteConnection } from './sqlite-connection.js';

const directory = mkdtempSync(join(tmpdir(), 'compaction-sqlite-search-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function archiving(round: number, handle: string, text: string): CompactionRecord {
  return { ...sampleCompactionRecord('a', round), archived: [{ handle, label: 'bash output', text }] };
}

/** Inserts a record as a process of version 3 of the schema does, knowing nothing of the index. */
function insertAsVersion3(database: Database, record: CompactionRecord): void {
  const { event } = record;
  database.run(
    `INSERT INTO compactions
       (event_id, session_id, round, started_at, event, removed_messages, archived, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      event.id,
      event.sessionId,
      event.round,
      event.startedAt,
      JSON.stringify(event),
      JSON.stringify(record.removedMessages),
      JSON.stringify(record.archived),
      new Date().toISOString(),
    ],
  );
}

describe('the SQLite archive search index', () => {
  it('indexes what a file archived before it had the index, and what older versions append after', async () => {
    const path = join(directory, 'version-3.db');
    const connection = new SqliteConnection(path, 60_000);
    connection.attempt((database) => {
      for (const migration of schemaMigrations.filter((migration) => migration.version <= 3))
        for (const statement of migration.statements) database.exec(statement);
      database.exec('PRAGMA user_version = 3');
      insertAsVersion3(database, archiving(1, 'handle', 'old words of the first round'));
      insertAsVersion3(database, archiving(2, 'handle', '我们讨论了数据库的设计 in the second round'));
      insertAsVersion3(database, archiving(3, 'other', 'another item'));
    });
    connection.close();
    const store = await openSqliteCompactionStore({ path });
    expect(await store.searchArchived({ text: '数据' })).toEqual([
      expect.objectContaining({ handle: 'handle', round: 2, snippet: expect.stringContaining('**数据**') }),
    ]);
    expect(await store.searchArchived({ text: 'old words' })).toEqual([]);
    expect((await store.searchArchived({ text: 'round' })).map((hit) => hit.handle)).toEqual(['handle']);
    await store.close();
    // A process of the version before, still writing to the file, keeps the index too: triggers keep it.
    const older = new SqliteConnection(path, 60_000);
    older.attempt((database) =>
      insertAsVersion3(database, archiving(4, 'later', 'appended by an older process')),
    );
    older.close();
    const reopened = await openSqliteCompactionStore({ path });
    expect((await reopened.searchArchived({ text: 'older process' })).map((hit) => hit.handle)).toEqual([
      'later',
    ]);
    await reopened.close();
  });
});
