import { PackageLoadError } from '../errors/package-load-error.js';
import { StoreNotFoundError } from '../errors/store-not-found-error.js';
import type { ResolveFrom } from '../registry/import-from-folders.js';
import { importPackage, type PackageLoader, packageImportOf } from '../registry/import-package.js';
import { assertV1Definition } from '../registry/v1-definition.js';
import type { CompactionStore } from './compaction-store.js';
import { InMemoryCompactionStore } from './in-memory-compaction-store.js';
import { defineStore, type StoreDefinition } from './store-definition.js';

/**
 * What a store location names: `memory`; a URL (`postgres://...`) by its scheme; a package by its name
 * (`@scope/name`, or a lowercase name with no dot or slash); anything else is a file path, for SQLite. A
 * file named like a package is written as a path: `./sessions`.
 */
export type StoreLocationKind =
  | { kind: 'memory' }
  | { kind: 'url'; scheme: string }
  | { kind: 'package'; packageName: string }
  | { kind: 'path' };

/** Reads what kind of store a location names (see {@link StoreLocationKind}). */
export function storeLocationKind(location: string): StoreLocationKind {
  if (location === 'memory') return { kind: 'memory' };
  // Two letters at least, so a Windows drive (`C:/...`) stays a path.
  const url = /^([a-z][a-z0-9+.-]+):\/\//i.exec(location);
  if (url !== null) return { kind: 'url', scheme: url[1]!.toLowerCase() };
  if (/^(@[a-z0-9][\w.~-]*\/[a-z0-9][\w.~-]*|[a-z0-9][a-z0-9_~-]*)$/.test(location)) {
    return { kind: 'package', packageName: location };
  }
  return { kind: 'path' };
}

/** Settings of {@link createStoreRegistry}. */
export interface StoreRegistrySettings {
  /** Definitions to register up front (`memory` is always registered). */
  definitions?: readonly StoreDefinition<never>[];
  /** How to load a store's package; `false` never loads packages. */
  loadPackage?: PackageLoader | false;
  /** Where to look for a package that `loadPackage` cannot see, as for strategies (the working folder by default). */
  resolveFrom?: ResolveFrom | readonly ResolveFrom[];
}

/**
 * Opens stores by location, as strategies are resolved by name: `memory`, a file path (the `sqlite` store,
 * `@compaction/store-sqlite`), a URL by its scheme (`postgres://` and `postgresql://`: `@compaction/store-postgres`;
 * another scheme `x`: `@compaction/store-x`), or a package by its name (its default export).
 */
export interface StoreRegistry {
  /** Registers a definition, by its name and its schemes; a later one replaces an earlier one. */
  register<Settings extends object>(definition: StoreDefinition<Settings>): StoreRegistry;
  /** The registered names, sorted. */
  names(): string[];
  /** The definition that opens a location, loading its package when none is registered. */
  definition(location: string): Promise<StoreDefinition<never>>;
  /** Opens the store at a location and waits until it is usable (closing it again when it is not). */
  open(location: string, settings?: Record<string, unknown>): Promise<CompactionStore>;
}

/** The package of a URL scheme, where it is not `@compaction/store-<scheme>`. */
const schemePackages: Record<string, string> = { postgresql: '@compaction/store-postgres' };

const memoryDefinition = defineStore({
  specificationVersion: 'v1',
  name: 'memory',
  description: 'Keeps records in memory, for as long as the process runs.',
  open: () => new InMemoryCompactionStore(),
});

/** Creates a store registry with `memory` and the given definitions. */
export function createStoreRegistry(settings: StoreRegistrySettings = {}): StoreRegistry {
  const byName = new Map<string, StoreDefinition<never>>();
  const byScheme = new Map<string, StoreDefinition<never>>();
  const byPackage = new Map<string, StoreDefinition<never>>();
  const { loadPackage, resolveFrom } = settings;
  const packages = loadPackage === false ? false : packageImportOf({ loadPackage, resolveFrom });
  const registry: StoreRegistry = {
    register(definition) {
      assertStoreDefinition(definition, 'register()');
      byName.set(definition.name, definition as StoreDefinition<never>);
      for (const scheme of definition.schemes ?? [])
        byScheme.set(scheme.toLowerCase(), definition as StoreDefinition<never>);
      return registry;
    },
    names: () => [...byName.keys()].sort(),
    async definition(location) {
      const kind = storeLocationKind(location);
      const wanted = wantedOf(kind);
      const registered =
        kind.kind === 'url'
          ? byScheme.get(kind.scheme)
          : kind.kind === 'package'
            ? byPackage.get(kind.packageName)
            : byName.get(wanted.requestedName);
      if (registered !== undefined) return registered;
      const { requestedName, packageName } = wanted;
      const context = { requestedName, registeredNames: registry.names(), packageName };
      if (packages === false) throw new StoreNotFoundError(context);
      const loaded = await importPackage(
        packageName,
        packages,
        (cause, searched) => new StoreNotFoundError({ ...context, cause, searched }),
      );
      const definition = (loaded as { default?: unknown } | undefined)?.default;
      assertStoreDefinition(definition, packageName);
      if (!wanted.opensWith(definition)) {
        const cause = new Error(`its store "${definition.name}" does not open ${requestedName} locations`);
        throw new PackageLoadError({ packageName, cause });
      }
      if (kind.kind === 'package') byPackage.set(packageName, definition);
      else registry.register(definition);
      return definition;
    },
    async open(location, storeSettings = {}) {
      const definition = await registry.definition(location);
      const store = await definition.open(location, storeSettings as never);
      try {
        await store.opened?.();
      } catch (error) {
        await store.close().catch(() => undefined);
        throw error;
      }
      return store;
    },
  };
  for (const definition of [memoryDefinition, ...(settings.definitions ?? [])]) registry.register(definition);
  return registry;
}

/** The name a location asks for, the package that would provide it, and whether a loaded definition does. */
function wantedOf(kind: StoreLocationKind): {
  requestedName: string;
  packageName: string;
  opensWith(definition: StoreDefinition<never>): boolean;
} {
  switch (kind.kind) {
    case 'memory':
      return { requestedName: 'memory', packageName: '@compaction/core', opensWith: () => true };
    case 'url': {
      const packageName = schemePackages[kind.scheme] ?? `@compaction/store-${kind.scheme}`;
      const opensWith = (definition: StoreDefinition<never>) =>
        definition.schemes?.includes(kind.scheme) === true;
      return { requestedName: `${kind.scheme}://`, packageName, opensWith };
    }
    case 'package':
      return { requestedName: kind.packageName, packageName: kind.packageName, opensWith: () => true };
    case 'path':
      return {
        requestedName: 'sqlite',
        packageName: '@compaction/store-sqlite',
        opensWith: (definition) => definition.name === 'sqlite',
      };
  }
}

function assertStoreDefinition(value: unknown, source: string): asserts value is StoreDefinition<never> {
  assertV1Definition(value, source, { label: 'store', make: 'open' });
}
