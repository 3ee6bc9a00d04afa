// Run as a separate process: writes records to a store file, then exits without closing it, as a crash would.
import { sampleCompactionRecord } from '@compaction/testing/vitest';
import { createSqliteCompactionStore } from '../sqlite-compaction-store.js';

const [path, sessionId, count] = process.argv.slice(2);
const store = createSqliteCompactionStore({ path: path! });
for (let round = 1; round <= Number(count); round++) {
  const record = sampleCompactionRecord(sessionId!, round);
  await store.append({ ...record, event: { ...record.event, id: `${process.pid}-${round}` } });
}
await store.updateSessionMetadata(sessionId!, { writer: process.pid });
process.exit(0);
