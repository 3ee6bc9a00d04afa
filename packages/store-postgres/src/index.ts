import { postgresStoreDefinition } from './postgres-store-definition.js';

export { PostgresStoreError, type PostgresStoreErrorReason } from './errors/postgres-store-error.js';
export { schemaVersion } from './migrations.js';
export {
  createPostgresCompactionStore,
  defaultLockTimeoutMs,
  defaultPoolSize,
  migratePostgresStore,
  openPostgresCompactionStore,
  PostgresCompactionStore,
  type PostgresCompactionStoreSettings,
} from './postgres-compaction-store.js';
export { postgresStoreDefinition } from './postgres-store-definition.js';
export { redactConnectionString } from './redact-connection-string.js';

export default postgresStoreDefinition;
