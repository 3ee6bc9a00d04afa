import { InvalidOptionsError } from '../errors/invalid-options-error.js';

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
 * registered. Strategies and providers are both resolved this way.
 */
export class DefinitionRegistry<Definition extends NamedDefinition> {
  private readonly definitions = new Map<string, Definition>();

  constructor(
    private readonly kind: DefinitionKind<Definition>,
    private readonly loadPackage: PackageLoader | false = (packageName) => import(packageName),
  ) {}

  register(definition: Definition): void {
    this.assertDefinition(definition, 'register()');
    this.definitions.set(definition.name, definition);
  }

  names(): string[] {
    return [...this.definitions.keys()].sort();
  }

  list(): Definition[] {
    return this.names().map((name) => this.definitions.get(name)!);
  }

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
      throw notFound(error);
    }
    const definition = (loaded as { default?: unknown } | undefined)?.default;
    this.assertDefinition(definition, packageName);
    if (definition.name !== name)
      throw notFound(new Error(`${packageName} exports a ${this.kind.label} named "${definition.name}"`));
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
