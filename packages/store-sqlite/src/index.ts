export {
  createSqliteCompactionStore,
  SqliteCompactionStore,
  type SqliteCompactionStoreSettings,
} from './sqlite-compaction-store.js';
