import type { CompactionStore } from './compaction-store.js';

/**
 * What a store package default-exports, so a store registry can open it from a location (`--store`): a name, the
 * URL schemes it opens, and a factory. `settings` are what the application passes besides the location (a
 * pool size, a lock timeout), the same for every store, so each reads the ones it knows.
 */
export interface StoreDefinitionV1<Settings extends object = Record<string, unknown>> {
  readonly specificationVersion: 'v1';
  /** `memory`, `sqlite`, `postgres`, or a third-party store's own name. */
  readonly name: string;
  /** One sentence: where the store keeps records. */
  readonly description: string;
  /** URL schemes whose locations it opens, such as `postgres` for `postgres://...`. */
  readonly schemes?: readonly string[];
  /** Opens the store at `location`, as given (a path, a URL, the package name); the registry awaits `opened()`. */
  open(location: string, settings: Settings): CompactionStore | Promise<CompactionStore>;
}

/** The current store definition spec. */
export type StoreDefinition<Settings extends object = Record<string, unknown>> = StoreDefinitionV1<Settings>;

/** Declares a store definition with its settings type. */
export function defineStore<Settings extends object>(
  definition: StoreDefinition<Settings>,
): StoreDefinition<Settings> {
  return definition;
}
