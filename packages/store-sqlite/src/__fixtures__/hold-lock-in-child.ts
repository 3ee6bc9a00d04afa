// Run as a separate process: takes the store's lock as a store call does, writes rows of a session named
// `half-done` inside a write transaction (spilled to the database file, so a crash leaves it half-written),
// prints `holding`, and then blocks the whole process until a line arrives on standard input, when it
// commits. The parent either sends the line or kills the process.
import { readSync } from 'node:fs';
import { sampleCompactionRecord } from '@compaction/testing/vitest';
import { inTransaction, SqliteConnection } from '../sqlite-connection.js';

const [path, rows] = process.argv.slice(2);
const connection = new SqliteConnection(path!, 60_000);
for (;;) {
  const attempt = connection.attempt((database) => {
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
  });
  if (attempt.done) break;
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
}
connection.close();

function waitForLine(): void {
  const byte = Buffer.alloc(1);
  for (;;) {
    try {
      if (readSync(0, byte) === 0 || byte[0] === 0x0a) return;
    } catch (error) {
      // A non-blocking pipe with nothing in it yet.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}
