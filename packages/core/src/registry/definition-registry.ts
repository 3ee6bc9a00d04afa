import type { DefinitionNotFoundSettings } from '../errors/definition-not-found.js';
import { PackageLoadError } from '../errors/package-load-error.js';
import { type OptionsSchema, validateOptions } from '../options/options-schema.js';
import type { ResolveFrom } from './import-from-folders.js';
import { importPackage, type PackageImport, type PackageLoader, packageImportOf } from './import-package.js';
import { assertV1Definition } from './v1-definition.js';

export type { PackageLoader } from './import-package.js';

/** What every registered definition has (besides a factory and the schema of its input). */
export interface NamedDefinition {
  readonly specificationVersion: 'v1';
  readonly name: string;
}

/** How a {@link DefinitionRegistry} is specialised: strategies, providers. */
export interface DefinitionKind<Definition extends NamedDefinition> {
  /** What the definitions are: `<label>` in messages, `@compaction/<label>-<name>` the package of a name. */
  label: 'strategy' | 'provider';
  /** The property holding the schema a definition's input is validated against. */
  schema: {
    [Key in keyof Definition]: Definition[Key] extends OptionsSchema ? Key : never;
  }[keyof Definition];
  /** The error for a name that is neither registered nor installed. */
  notFound(settings: DefinitionNotFoundSettings): Error;
}

/**
 * Maps names to definitions, loading the conventional package's default export for a name that is not
 * registered. The strategy and provider registries are this, with their `resolve` on top.
 */
export class DefinitionRegistry<Definition extends NamedDefinition> {
  readonly specificationVersion = 'v1';
  private readonly definitions = new Map<string, Definition>();
  private readonly packages: PackageImport | false;
  constructor(
    private readonly kind: DefinitionKind<Definition>,
    settings: {
      definitions?: readonly Definition[] | undefined;
      loadPackage?: PackageLoader | false | undefined;
      resolveFrom?: ResolveFrom | readonly ResolveFrom[] | undefined;
    },
  ) {
    this.packages =
      settings.loadPackage === false
        ? false
        : packageImportOf({ ...settings, loadPackage: settings.loadPackage });
    for (const definition of settings.definitions ?? []) this.register(definition);
  }
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
    const { label, notFound } = this.kind;
    const packageName = `@compaction/${label}-${name}`;
    const context = { requestedName: name, registeredNames: this.names(), packageName };
    if (this.packages === false || !/^[a-z0-9][a-z0-9-]*$/.test(name)) throw notFound(context);
    const loaded = await importPackage(packageName, this.packages, (cause, searched) =>
      notFound({ ...context, cause, searched }),
    );
    const definition = (loaded as { default?: unknown } | undefined)?.default;
    this.assertDefinition(definition, packageName);
    if (definition.name !== name) {
      const cause = new Error(`it exports a ${label} named "${definition.name}", not "${name}"`);
      throw new PackageLoadError({ packageName, cause });
    }
    this.register(definition);
    return definition;
  }
  /** The definition for `name`, and `input` validated against its schema (with defaults filled in). */
  protected async validated(name: string, input: unknown): Promise<[Definition, never]> {
    const definition = await this.definition(name);
    const schema = definition[this.kind.schema] as OptionsSchema;
    return [definition, validateOptions<never>(schema, input, `${this.kind.label} "${name}"`)];
  }
  private assertDefinition(value: unknown, source: string): asserts value is Definition {
    assertV1Definition(value, source, {
      label: this.kind.label,
      make: 'create',
      schema: this.kind.schema as string,
    });
  }
}
