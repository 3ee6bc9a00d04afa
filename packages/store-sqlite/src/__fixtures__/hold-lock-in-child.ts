// Run as a separate process: takes the store's lock as a store call does, writes rows of a session named
// `half-done` inside a write transaction (spilled to the database file, so a crash leaves it half-written),
// prints `holding`, and then blocks the whole process until a line arrives on standard input, when it
// commits. The parent either sends the line or kills the process. With `sqlite-only` as the third argument it
// takes SQLite's lock alone, as the previous version of this package and other node-sqlite3-wasm programs do.
import { readSync } from 'node:fs';
import { sampleCompactionRecord } from '@compaction/testing/vitest';
import sqlite from 'node-sqlite3-wasm';
import { type Database, inTransaction, SqliteConnection } from '../sqlite-connection.js';

const [path, rows, mode] = process.argv.slice(2);

if (mode === 'sqlite-only') {
  const database = new sqlite.Database(path!);
  retryWhileBusy(() => {
    try {
      writeHalfDone(database);
      return true;
    } catch (error) {
      if (!/locked/.test(String(error))) throw error;
      return false;
    }
  });
  database.close();
} else {
  const connection = new SqliteConnection(path!, 60_000);
  retryWhileBusy(() => connection.attempt(writeHalfDone).done);
  connection.close();
}

function writeHalfDone(database: Database): void {
  // A tiny page cache makes SQLite write the transaction's pages to the file before it commits.
  database.exec('PRAGMA cache_size = 2');
  inTransaction(database, () => {
    for (let round = 1; round <= Number(rows); round++) {
      const { event, removedMessages } = sampleCompactionRecord('half-done', round);
      database.run(
        `INSERT INTO compactions (event_id, session_id, round, started_at, event, removed_messages)
         VALUES (?, ?, ?, ?, ?, ?)`,
        [
          event.id,
          event.sessionId,
          round,
          event.startedAt,
          JSON.stringify(event),
          JSON.stringify(removedMessages),
        ],
      );
    }
    process.stdout.write('holding\n');
    waitForLine();
  });
}

function retryWhileBusy(attempt: () => boolean): void {
  while (!attempt()) pause(10);
}

function waitForLine(): void {
  const byte = Buffer.alloc(1);
  for (;;) {
    try {
      if (readSync(0, byte) === 0 || byte[0] === 0x0a) return;
    } catch (error) {
      // A non-blocking pipe with nothing in it yet.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      pause(10);
    }
  }
}

function pause(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}
