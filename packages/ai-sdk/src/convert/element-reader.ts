import { ConversionProblem } from '@compaction/provider-utils';
import { type JSONRecord, joinMetadata, type ReadOptions } from './metadata-slot.js';

/** Reads an element's `providerOptions`; see `readProviderOptions`. */
export type OptionsReader = (providerOptions: unknown, path: string) => ReadOptions;

/** What decoding one AI SDK element works with; see {@link elementReader}. */
export interface ElementReader {
  /** Core-only fields an earlier encoding kept in the element's `providerOptions`. */
  slot: Record<string, unknown> | undefined;
  /** What core has no field for, recorded under `metadata.aiSdk` so encoding restores it. */
  extras: JSONRecord;
  /** The element's string field `field`; throws a {@link ConversionProblem} naming it otherwise. */
  string(field: string): string;
  /** `{ [field]: value }` for a string field that is present, `{}` for an absent one; throws like `string`. */
  optionalString(field: string): Record<string, string>;
  /** `core` with the metadata of the slot and the extras, when there is some. */
  done<Core extends object>(core: Core): Core;
}

/**
 * Starts decoding one AI SDK element (a message at `path` `''`, a part, a tool result item): reads its
 * provider options into the slot and the extras, which `done` attaches to the core value once it is built.
 */
export function elementReader(
  element: Record<string, unknown>,
  path: string,
  readOptions: OptionsReader,
): ElementReader {
  const options = readOptions(
    element.providerOptions,
    path === '' ? 'providerOptions' : `${path}.providerOptions`,
  );
  const extras: JSONRecord = {};
  if (options.rest !== undefined) extras.providerOptions = options.rest;
  const string = (field: string): string => {
    const value = element[field];
    if (typeof value !== 'string') {
      throw new ConversionProblem(path === '' ? field : `${path}.${field}`, 'must be a string');
    }
    return value;
  };
  return {
    slot: options.slot,
    extras,
    string,
    optionalString: (field) => (element[field] === undefined ? {} : { [field]: string(field) }),
    done(core) {
      const metadata = joinMetadata(options.slot, extras);
      return metadata === undefined ? core : { ...core, metadata };
    },
  };
}
