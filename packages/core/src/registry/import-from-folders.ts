/**
 * Where a package is looked for when core's own `import()` cannot see it: a folder (or a file in it, such as a
 * config file), as a path or a `file:` URL. Resolution walks up from it through each `node_modules`, as Node does.
 */
export type ResolveFrom = string | URL;

/** What {@link importFromFolders} found: the package's module, or the folders it looked from in vain. */
export type FolderImport = { found: true; module: unknown } | { found: false; searched: string[] };

/** The few Node built-ins this needs, typed here so core needs neither Node's types nor a `node:` import. */
interface NodeBuiltins {
  fs: {
    existsSync(path: string): boolean;
    readFileSync(path: string, encoding: 'utf8'): string;
    statSync(path: string, options: { throwIfNoEntry: false }): { isDirectory(): boolean } | undefined;
  };
  path: {
    dirname(path: string): string;
    join(...paths: string[]): string;
    resolve(...paths: string[]): string;
  };
  url: { fileURLToPath(url: string | URL): string; pathToFileURL(path: string): URL };
}

interface NodeProcess {
  cwd(): string;
  getBuiltinModule?(name: string): unknown;
}

/** The conditions Node's `import()` matches in an `exports` map. */
const importConditions = new Set(['node', 'import', 'module-sync', 'default']);

/**
 * Imports `packageName` as an application in one of `folders` would (the working folder when none is given):
 * for a registry in a pnpm-strict `node_modules` or a CLI installed globally, whose own resolution cannot see
 * the application's packages. Off Node (browsers, workers) there are no folders, and nothing is found.
 */
export async function importFromFolders(
  packageName: string,
  folders: readonly ResolveFrom[] | undefined,
): Promise<FolderImport> {
  const node = nodeRuntime();
  if (node === undefined) return { found: false, searched: [] };
  const { process, builtins } = node;
  const starts = (folders ?? [process.cwd()]).map((folder) => startFolder(folder, builtins));
  for (const start of starts) {
    const packageFolder = findPackageFolder(packageName, start, builtins);
    if (packageFolder === undefined) continue;
    const entry = builtins.path.join(packageFolder, entryOf(packageFolder, builtins));
    return { found: true, module: await import(builtins.url.pathToFileURL(entry).href) };
  }
  return { found: false, searched: starts };
}

/** Node's process and built-ins, or `undefined` where there are none (browsers, edge runtimes without them). */
function nodeRuntime(): { process: NodeProcess; builtins: NodeBuiltins } | undefined {
  const process = (globalThis as { process?: NodeProcess }).process;
  if (typeof process?.getBuiltinModule !== 'function' || typeof process.cwd !== 'function') return undefined;
  try {
    const builtins = {
      fs: process.getBuiltinModule('node:fs'),
      path: process.getBuiltinModule('node:path'),
      url: process.getBuiltinModule('node:url'),
    } as Partial<NodeBuiltins>;
    if (builtins.fs === undefined || builtins.path === undefined || builtins.url === undefined)
      return undefined;
    return { process, builtins: builtins as NodeBuiltins };
  } catch {
    return undefined;
  }
}

/** The folder to walk up from: the folder itself, or the folder of a file (a config file's location). */
function startFolder(from: ResolveFrom, { fs, path, url }: NodeBuiltins): string {
  const text = String(from);
  const resolved = path.resolve(text.startsWith('file:') ? url.fileURLToPath(text) : text);
  const stats = fs.statSync(resolved, { throwIfNoEntry: false });
  return stats === undefined || stats.isDirectory() ? resolved : path.dirname(resolved);
}

/** The folder of `packageName` in the nearest `node_modules` from `start` upwards, as Node looks for it. */
function findPackageFolder(
  packageName: string,
  start: string,
  { fs, path }: NodeBuiltins,
): string | undefined {
  for (let folder = start; ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, 'node_modules', packageName);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(folder) === folder) return undefined;
  }
}

/** The file the package's main entry points to for `import()`: its `exports` for `.`, else `main`, else `index.js`. */
function entryOf(packageFolder: string, { fs, path }: NodeBuiltins): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageFolder, 'package.json'), 'utf8')) as {
    exports?: unknown;
    main?: unknown;
  };
  const { exports } = manifest;
  const root =
    typeof exports === 'object' && exports !== null && !Array.isArray(exports) && '.' in exports
      ? (exports as Record<string, unknown>)['.']
      : exports;
  const target = root === undefined ? undefined : conditionalTarget(root);
  if (target !== undefined) return target;
  if (root !== undefined) throw new Error(`the "exports" of ${packageFolder} have no entry for import()`);
  return typeof manifest.main === 'string' ? manifest.main : 'index.js';
}

/** The target an `exports` value gives `import()`: conditions are matched in the order they are written. */
function conditionalTarget(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const target = conditionalTarget(item);
      if (target !== undefined) return target;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [condition, nested] of Object.entries(value)) {
    if (!importConditions.has(condition)) continue;
    const target = conditionalTarget(nested);
    if (target !== undefined) return target;
  }
  return undefined;
}
