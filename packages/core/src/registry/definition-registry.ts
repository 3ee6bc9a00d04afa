import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { PackageLoadError } from '../errors/package-load-error.js';

/** Loads a package by name; the default uses dynamic `import()`. */
export type PackageLoader = (packageName: string) => Promise<unknown>;

/** What every registered definition has. */
export interface NamedDefinition {
  readonly specificationVersion: 'v1';
  readonly name: string;
}

/** How a {@link DefinitionRegistry} is specialised (strategies, providers). */
export interface DefinitionKind<Definition extends NamedDefinition> {
  /** What the definitions are, for messages: `strategy`, `provider`. */
  label: string;
  /** The package that provides a name by convention, such as `@compaction/strategy-<name>`. */
  packageName(name: string): string;
  /** Whether a value is such a definition (beyond the name and version). */
  isDefinition(value: unknown): value is Definition;
  /** The error for a name that is neither registered nor installed. */
  notFound(context: { name: string; registeredNames: string[]; packageName: string; cause?: unknown }): Error;
}

/**
 * Maps names to definitions, loading the conventional package's default export for a name that is not
 * registered. The strategy and provider registries are this, with what resolves a config on top.
 */
export class DefinitionRegistry<Definition extends NamedDefinition> {
  readonly specificationVersion = 'v1';
  private readonly definitions = new Map<string, Definition>();

  constructor(
    private readonly kind: DefinitionKind<Definition>,
    private readonly loadPackage: PackageLoader | false = (packageName) => import(packageName),
  ) {}

  /** Registers a definition; a later registration under the same name replaces the earlier one. */
  register(definition: Definition): this {
    this.assertDefinition(definition, 'register()');
    this.definitions.set(definition.name, definition);
    return this;
  }

  /** The registered names, sorted. */
  names(): string[] {
    return [...this.definitions.keys()].sort();
  }

  /** The registered definitions, by name. */
  list(): Definition[] {
    return this.names().map((name) => this.definitions.get(name)!);
  }

  /** The definition for a name, loading its package when it is not registered. */
  async definition(name: string): Promise<Definition> {
    const registered = this.definitions.get(name);
    if (registered !== undefined) return registered;
    const packageName = this.kind.packageName(name);
    const notFound = (cause?: unknown) =>
      this.kind.notFound({
        name,
        registeredNames: this.names(),
        packageName,
        ...(cause === undefined ? {} : { cause }),
      });
    if (this.loadPackage === false || !/^[a-z0-9][a-z0-9-]*$/.test(name)) throw notFound();
    let loaded: unknown;
    try {
      loaded = await this.loadPackage(packageName);
    } catch (error) {
      // Only the package itself missing means "install it"; a package that is there but fails to load
      // would send the user to install what they already have.
      throw isMissingPackage(error, packageName)
        ? notFound(error)
        : new PackageLoadError({ packageName, cause: error });
    }
    const definition = (loaded as { default?: unknown } | undefined)?.default;
    this.assertDefinition(definition, packageName);
    if (definition.name !== name) {
      const cause = new Error(`it exports a ${this.kind.label} named "${definition.name}", not "${name}"`);
      throw new PackageLoadError({ packageName, cause });
    }
    this.register(definition);
    return definition;
  }

  private assertDefinition(value: unknown, source: string): asserts value is Definition {
    const candidate = value as Partial<NamedDefinition> | undefined | null;
    if (
      typeof candidate !== 'object' ||
      candidate === null ||
      candidate.specificationVersion !== 'v1' ||
      typeof candidate.name !== 'string' ||
      !this.kind.isDefinition(candidate)
    ) {
      throw new InvalidOptionsError({
        subject: source,
        issues: [{ path: '', message: `is not a v1 ${this.kind.label} definition` }],
      });
    }
  }
}

/**
 * Whether an import failed because the package named `packageName` is not installed: the runtime's
 * module-not-found error naming that very specifier (not a module the package itself imports).
 */
function isMissingPackage(error: unknown, packageName: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes(`'${packageName}'`)
  );
}
