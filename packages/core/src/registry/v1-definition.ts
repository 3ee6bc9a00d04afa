import { InvalidOptionsError } from '../errors/invalid-options-error.js';

/** What a v1 definition of one kind must hold besides its name: the function that makes it, perhaps a schema. */
export interface V1DefinitionShape {
  /** The kind, as messages name it: `strategy`, `provider`, `store`. */
  label: string;
  /** The field holding the function that makes what the definition defines (`create`, `open`). */
  make: string;
  /** The field holding its options schema, when the kind has one. */
  schema?: string;
}

/**
 * Throws an {@link InvalidOptionsError} naming `source` unless `value` is a v1 definition of that shape: every
 * registry checks what it is given (by `register()` or a package's default export) the same way.
 */
export function assertV1Definition(value: unknown, source: string, shape: V1DefinitionShape): void {
  const candidate = value as Record<string, unknown> | undefined | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    candidate.specificationVersion !== 'v1' ||
    typeof candidate.name !== 'string' ||
    typeof candidate[shape.make] !== 'function' ||
    (shape.schema !== undefined && typeof candidate[shape.schema] !== 'object')
  ) {
    const issue = { path: '', message: `is not a v1 ${shape.label} definition` };
    throw new InvalidOptionsError({ subject: source, issues: [issue] });
  }
}
