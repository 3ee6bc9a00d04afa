import { defineStore } from '@compaction/core/stores';
import {
  createSqliteCompactionStore,
  type SqliteCompactionStoreSettings,
} from './sqlite-compaction-store.js';

/**
 * The `sqlite` store definition, default-exported so a store registry opens a file path with it: the location
 * is the file (created when missing); `busyTimeoutMs` and `staleLockMs` are read from the settings.
 */
export const sqliteStoreDefinition = defineStore<Omit<SqliteCompactionStoreSettings, 'path'>>({
  specificationVersion: 'v1',
  name: 'sqlite',
  description: 'Keeps records in one SQLite file, across restarts.',
  open: (location, settings) =>
    createSqliteCompactionStore({
      path: location,
      ...(settings.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: settings.busyTimeoutMs }),
      ...(settings.staleLockMs === undefined ? {} : { staleLockMs: settings.staleLockMs }),
    }),
});
