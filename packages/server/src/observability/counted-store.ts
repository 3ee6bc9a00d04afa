import { CompactionError, type CompactionStore } from '@compaction/core';

/**
 * The store with every failed operation counted by `failed`. A session lock's work is the caller's: what it
 * throws counts only when it is the store's own error (a lock that timed out).
 */
export function countStoreErrors(store: CompactionStore, failed: () => void): CompactionStore {
  const storeOwn = (error: unknown) => CompactionError.isInstance(error) && error.code.startsWith('store-');
  return new Proxy(store, {
    get: (target, property) => {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = value as (...parameters: unknown[]) => unknown;
      const counts = (error: unknown) => property !== 'withSessionLock' || storeOwn(error);
      return (...parameters: unknown[]) => {
        try {
          const result = method.apply(target, parameters);
          if (!(result instanceof Promise)) return result;
          return result.catch((error: unknown) => {
            if (counts(error)) failed();
            throw error;
          });
        } catch (error) {
          if (counts(error)) failed();
          throw error;
        }
      };
    },
  });
}
