import { PackageLoadError } from '../errors/package-load-error.js';
import { importFromFolders, type ResolveFrom } from './import-from-folders.js';

/** Loads a package by name; the default uses dynamic `import()`. */
export type PackageLoader = (packageName: string) => Promise<unknown>;

/** How a registry loads the packages of names it does not hold: strategies, providers, stores. */
export interface PackageImport {
  loadPackage: PackageLoader;
  /** How messages name the loader: core's own folder, or the given `loadPackage`. */
  loader: string;
  resolveFrom: readonly ResolveFrom[] | undefined;
}

/** The loader, its description and the folders of a registry's settings. */
export function packageImportOf(settings: {
  loadPackage?: PackageLoader | undefined;
  resolveFrom?: ResolveFrom | readonly ResolveFrom[] | undefined;
}): PackageImport {
  const { loadPackage, resolveFrom } = settings;
  return {
    loadPackage: loadPackage ?? ((packageName) => import(packageName)),
    loader: loadPackage === undefined ? "@compaction/core's own folder" : 'the given loadPackage',
    resolveFrom:
      resolveFrom === undefined || Array.isArray(resolveFrom) ? resolveFrom : [resolveFrom as ResolveFrom],
  };
}

/**
 * The package's module: from the loader, else (when the loader cannot see it: core in a pnpm-strict
 * `node_modules`, a CLI installed globally) from the caller's folders, as the application itself would. A
 * package that is not installed anywhere gets `notFound`, told where it was looked for.
 */
export async function importPackage(
  packageName: string,
  { loadPackage, loader, resolveFrom }: PackageImport,
  notFound: (cause: unknown, searched: string[]) => Error,
): Promise<unknown> {
  let missing: unknown;
  try {
    return await loadPackage(packageName);
  } catch (cause) {
    // Only the package itself missing means "install it"; a package that is there but fails to load
    // would send the user to install what they already have.
    if (!isMissingPackage(cause, packageName)) throw new PackageLoadError({ packageName, cause });
    missing = cause;
  }
  let fromFolders: Awaited<ReturnType<typeof importFromFolders>>;
  try {
    fromFolders = await importFromFolders(packageName, resolveFrom);
  } catch (cause) {
    throw new PackageLoadError({ packageName, cause });
  }
  if (fromFolders.found) return fromFolders.module;
  throw notFound(missing, [loader, ...fromFolders.searched]);
}

/**
 * Whether an import failed because the package named `packageName` is not installed: the runtime's
 * module-not-found error naming that very specifier (not a module the package itself imports).
 */
function isMissingPackage(error: unknown, packageName: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const notFound = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
  return notFound && typeof message === 'string' && message.includes(`'${packageName}'`);
}
