import { sqliteStoreDefinition } from './sqlite-store-definition.js';

export { SqliteStoreError, type SqliteStoreErrorReason } from './errors/sqlite-store-error.js';
export type { ProcessIdentity } from './process-identity.js';
export {
  createSqliteCompactionStore,
  openSqliteCompactionStore,
  SqliteCompactionStore,
  type SqliteCompactionStoreSettings,
} from './sqlite-compaction-store.js';
export { sqliteStoreDefinition } from './sqlite-store-definition.js';
export default sqliteStoreDefinition;
