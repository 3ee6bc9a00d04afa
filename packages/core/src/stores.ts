// The `@compaction/core/stores` entry: what store packages and the applications that open stores by location
// use (the store registry, the store definition spec, the one session-metadata merge, the one reading of an
// archive search and scoring and cutting of its hits). The `CompactionStore` spec and the in-memory store are
// in the main entry.
export { StoreNotFoundError } from './errors/store-not-found-error.js';
export { type ArchiveSearchPlan, planArchiveSearch } from './store/archive-search-plan.js';
export { archiveSearchScore, archiveSearchSnippet } from './store/archive-search-text.js';
export { InvalidSearchQueryError } from './store/invalid-search-query-error.js';
export { mergeSessionMetadata } from './store/merge-session-metadata.js';
export { type SessionRecords, searchArchivedRecords } from './store/search-archived-records.js';
export { defineStore, type StoreDefinition, type StoreDefinitionV1 } from './store/store-definition.js';
export {
  createStoreRegistry,
  type StoreLocationKind,
  type StoreRegistry,
  type StoreRegistrySettings,
  storeLocationKind,
} from './store/store-registry.js';
