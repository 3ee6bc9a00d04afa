// Run as a separate process: writes records to a store file, then ends without closing the store, as a
// program that forgets to would. The process must still end by itself.
import { sampleCompactionRecord } from '@compaction/testing/vitest';
import { createSqliteCompactionStore } from '../sqlite-compaction-store.js';

const [path, sessionId, count] = process.argv.slice(2);
const store = createSqliteCompactionStore({ path: path!, busyTimeoutMs: 60_000 });
for (let round = 1; round <= Number(count); round++) {
  const record = sampleCompactionRecord(sessionId!, round);
  await store.append({ ...record, event: { ...record.event, id: `${process.pid}-${round}` } });
}
await store.updateSessionMetadata(sessionId!, { writer: process.pid });
