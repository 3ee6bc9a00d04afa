/**
 * The code of a {@link CompactionError}: stable, machine-readable, `<package>/<name>` where `<package>` is the
 * package name without its `@compaction/` scope (`core/invalid-options`, `cli/usage`...). Other packages add
 * their own codes rather than borrow one whose meaning does not fit.
 */
export type CompactionErrorCode = `${string}/${string}`;

/** What every {@link CompactionError} is built from. */
export interface CompactionErrorSettings {
  code: CompactionErrorCode;
  message: string;
  cause?: unknown;
}

/**
 * Base of every error Compaction throws. Use the static `isInstance` checks rather than `instanceof`: they
 * test a `Symbol.for` marker, so they work across duplicate installs of a package. A subclass declares its
 * `marker` (unique to it, such as `compaction.error.invalid-options`) and its `name`; an instance carries the
 * marker of its class and of every class it extends.
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
