// The `@compaction/core/stores` entry: what store packages and the applications that open stores by location
// use (the store registry, the store definition spec, the one session-metadata merge). The `CompactionStore` spec
// and the in-memory store are in the main entry.
export { StoreNotFoundError } from './errors/store-not-found-error.js';
export { mergeSessionMetadata } from './store/merge-session-metadata.js';
export { defineStore, type StoreDefinition, type StoreDefinitionV1 } from './store/store-definition.js';
export {
  createStoreRegistry,
  type StoreLocationKind,
  type StoreRegistry,
  type StoreRegistrySettings,
  storeLocationKind,
} from './store/store-registry.js';
