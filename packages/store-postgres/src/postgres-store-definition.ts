import { defineStore } from '@compaction/core/stores';
import {
  createPostgresCompactionStore,
  type PostgresCompactionStoreSettings,
} from './postgres-compaction-store.js';

/**
 * The `postgres` store definition, default-exported so a store registry opens `postgres://` and
 * `postgresql://` locations with it: the location is the connection string; `poolSize`, `lockTimeoutMs`,
 * `connectionTimeoutMs` and `migrate` are read from the settings. The registry waits for `opened()`.
 */
export const postgresStoreDefinition = defineStore<Omit<PostgresCompactionStoreSettings, 'connectionString'>>(
  {
    specificationVersion: 'v1',
    name: 'postgres',
    description: 'Keeps records in a PostgreSQL database that any number of processes share.',
    schemes: ['postgres', 'postgresql'],
    open: (location, settings) => createPostgresCompactionStore({ ...settings, connectionString: location }),
  },
);
