/**
 * The stable code of a {@link CompactionError}: `<package>/<name>`, the package without its `@compaction/`
 * scope (`core/invalid-options`, `cli/usage`); packages add their own rather than borrow an ill-fitting one.
 */
export type CompactionErrorCode = `${string}/${string}`;

/** What every {@link CompactionError} is built from. */
export interface CompactionErrorSettings {
  code: CompactionErrorCode;
  message: string;
  cause?: unknown;
}

/**
 * Base of every error Compaction throws. Check with the static `isInstance`, not `instanceof`: it tests a
 * `Symbol.for` marker, so it works across duplicate installs. A subclass declares its own `marker` and `name`.
 */
export class CompactionError extends Error {
  /** The `Symbol.for` key an instance of this class carries, in every copy of the package that defines it. */
  static readonly marker: string = 'compaction.error';
  override readonly name: string = 'CompactionError';
  /** A stable, machine-readable code, namespaced by package (see {@link CompactionErrorCode}). */
  readonly code: CompactionErrorCode;
  constructor({ code, message, cause }: CompactionErrorSettings) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
    // A class without a marker of its own is recognised as the nearest class above it that has one.
    for (let type: unknown = new.target; type !== Error && typeof type === 'function'; ) {
      const { marker } = type as { marker?: unknown };
      if (Object.hasOwn(type, 'marker') && typeof marker === 'string') {
        Object.defineProperty(this, Symbol.for(marker), { value: true });
      }
      type = Object.getPrototypeOf(type);
    }
  }
  /**
   * Whether `error` is an instance of this class, from this or any other copy of its package. Bound to the
   * class it is read from, so it can be passed on as it is: `errors.filter(InvalidOptionsError.isInstance)`.
   */
  declare static readonly isInstance: <Instance>(
    this: { readonly prototype: Instance; readonly marker: string },
    error: unknown,
  ) => error is Instance;
  static {
    // A getter, not a static method: a method read off a subclass and passed on as a callback loses the
    // `this` that says which marker it checks.
    Object.defineProperty(CompactionError, 'isInstance', {
      get(this: { readonly marker: string }) {
        const marker = Symbol.for(this.marker);
        return (error: unknown) => typeof error === 'object' && error !== null && marker in error;
      },
    });
  }
}
