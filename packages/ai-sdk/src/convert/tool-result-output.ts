import type { JSONValue, ToolResultContentPart, ToolResultPart } from '@compaction/core';
import { isJSONValue } from '@compaction/core';
import { ConversionProblem } from '@compaction/provider-utils';
import { elementReader, type OptionsReader } from './element-reader.js';
import { fixedShapeOf, readFixedShape, withFixedShape } from './fixed-shape-output.js';
import { isRecord, type JSONRecord, splitMetadata, writeProviderOptions } from './metadata-slot.js';

/** The text a denied tool call without a reason shows to strategies and counters. */
export const deniedText = '[The tool call was denied.]';

type Output = Pick<ToolResultPart, 'output' | 'isError'>;

/**
 * Converts an AI SDK tool result output to a core output. Output kinds core has no slot for are recorded in
 * `extras` (`output`, `reason`, `outputProviderOptions`) so {@link outputToAiSdk} restores them.
 */
export function outputFromAiSdk(
  output: unknown,
  extras: JSONRecord,
  slot: Record<string, unknown> | undefined,
  readOptions: OptionsReader,
): Output {
  if (!isRecord(output)) throw new ConversionProblem('output', 'must be a tool result output object');
  if (output.providerOptions !== undefined) {
    if (!isJSONValue(output.providerOptions))
      throw new ConversionProblem('output.providerOptions', 'must be JSON');
    extras.outputProviderOptions = output.providerOptions;
  }
  const text = (value: unknown) => {
    if (typeof value !== 'string') throw new ConversionProblem('output.value', 'must be a string');
    return value;
  };
  const json = (value: unknown) => {
    if (!isJSONValue(value)) throw new ConversionProblem('output.value', 'must be JSON');
    extras.output = 'json';
    const shape = fixedShapeOf(value);
    if (shape !== undefined) extras.shape = shape as unknown as JSONValue;
    return JSON.stringify(value);
  };
  // A core `isError: false` has no AI SDK form but an absent flag; it rides in the slot.
  const notError = slot?.isError === false ? { isError: false } : {};
  switch (output.type) {
    case 'text':
      return { output: text(output.value), ...notError };
    case 'error-text':
      return { output: text(output.value), isError: true };
    case 'json':
      return { output: json(output.value), ...notError };
    case 'error-json':
      return { output: json(output.value), isError: true };
    case 'execution-denied':
      extras.output = 'execution-denied';
      if (output.reason === undefined) extras.reason = false;
      return { output: output.reason === undefined ? deniedText : text(output.reason), isError: true };
    case 'content': {
      if (!Array.isArray(output.value)) throw new ConversionProblem('output.value', 'must be an array');
      const parts = output.value.map((item, index) => contentItemFromAiSdk(item, index, readOptions));
      return { output: parts, ...(typeof slot?.isError === 'boolean' ? { isError: slot.isError } : {}) };
    }
    default:
      throw new ConversionProblem(
        'output.type',
        `unknown tool result output type ${JSON.stringify(output.type)}`,
      );
  }
}

/** The AI SDK output of a core tool result, restoring the kinds recorded by {@link outputFromAiSdk}. */
export function outputToAiSdk(
  part: ToolResultPart,
  extras: JSONRecord,
  slot: Record<string, unknown>,
): Record<string, unknown> {
  const withOptions = (output: Record<string, unknown>) =>
    extras.outputProviderOptions === undefined
      ? output
      : { ...output, providerOptions: extras.outputProviderOptions };
  if (part.isError !== undefined && (Array.isArray(part.output) || part.isError === false)) {
    slot.isError = part.isError;
  }
  if (Array.isArray(part.output)) {
    return withOptions({ type: 'content', value: part.output.map(contentItemToAiSdk) });
  }
  const text = part.output;
  if (extras.output === 'execution-denied') {
    return withOptions({ type: 'execution-denied', ...(extras.reason === false ? {} : { reason: text }) });
  }
  if (extras.output === 'json') {
    const shape = readFixedShape(extras.shape);
    // A strategy may have shortened the JSON text: a result of fixed shape is rebuilt around it, any other is
    // sent as text.
    const parsed = parseJSON(text);
    const value = parsed === undefined && shape !== undefined ? withFixedShape(shape, text) : parsed;
    if (value !== undefined) return withOptions({ type: part.isError ? 'error-json' : 'json', value });
  }
  return withOptions({ type: part.isError ? 'error-text' : 'text', value: text });
}

function parseJSON(text: string): JSONValue | undefined {
  try {
    return JSON.parse(text) as JSONValue;
  } catch {
    return undefined;
  }
}

const urlPattern = /^[a-z][a-z0-9+.-]*:/i;

function contentItemFromAiSdk(
  item: unknown,
  index: number,
  readOptions: OptionsReader,
): ToolResultContentPart {
  const path = `output.value[${index}]`;
  if (!isRecord(item)) throw new ConversionProblem(path, 'must be a content part');
  const read = elementReader(item, path, readOptions);
  const { extras, string, optionalString, done } = read;
  const slotMediaType = read.slot?.mediaType;
  // The kind is recorded only when the core shape would not lead back to it (see `inferredType`).
  const recordType = (part: ToolResultContentPart) => {
    if (inferredType(part) !== item.type) extras.type = item.type as string;
    return done(part);
  };
  switch (item.type) {
    case 'text':
      return done({ type: 'text', text: string('text') });
    case 'image-data':
      return recordType({
        type: 'image',
        image: string('data'),
        ...(slotMediaType === false ? {} : { mediaType: string('mediaType') }),
      });
    case 'image-url':
      return recordType({
        type: 'image',
        image: string('url'),
        ...(typeof slotMediaType === 'string' ? { mediaType: slotMediaType } : {}),
      });
    case 'file-data':
    case 'media':
      return recordType({
        type: 'file',
        data: string('data'),
        mediaType: string('mediaType'),
        ...optionalString('filename'),
      });
    case 'file-url': {
      if (item.mediaType === undefined) extras.mediaType = false;
      const filename = read.slot?.filename;
      return recordType({
        type: 'file',
        data: string('url'),
        mediaType: item.mediaType === undefined ? 'application/octet-stream' : string('mediaType'),
        ...(typeof filename === 'string' ? { filename } : {}),
      });
    }
    default: {
      // file-id, image-file-id, custom and future kinds: kept whole, shown to strategies as a short text.
      if (typeof item.type !== 'string' || !isJSONValue(item)) {
        throw new ConversionProblem(path, 'must be a JSON content part with a type');
      }
      const { providerOptions: _options, ...part } = item;
      extras.part = part as JSONValue;
      return done({ type: 'text', text: `[${item.type}]` });
    }
  }
}

function contentItemToAiSdk(part: ToolResultContentPart): Record<string, unknown> {
  const { extras, own } = splitMetadata(part.metadata);
  const slot: Record<string, unknown> = own === undefined ? {} : { metadata: own };
  const withOptions = (item: Record<string, unknown>) => {
    const providerOptions = writeProviderOptions(extras.providerOptions, slot);
    return providerOptions === undefined ? item : { ...item, providerOptions };
  };
  if (isRecord(extras.part)) return withOptions({ ...extras.part });
  switch (part.type) {
    case 'text':
      return withOptions({ type: 'text', text: part.text });
    case 'image': {
      if ((extras.type ?? inferredType(part)) === 'image-url') {
        if (part.mediaType !== undefined) slot.mediaType = part.mediaType;
        return withOptions({ type: 'image-url', url: part.image });
      }
      if (part.mediaType === undefined) slot.mediaType = false;
      return withOptions({ type: 'image-data', data: part.image, mediaType: part.mediaType ?? 'image/*' });
    }
    case 'file': {
      const type = extras.type ?? inferredType(part);
      if (type === 'file-url') {
        if (part.filename !== undefined) slot.filename = part.filename;
        return withOptions({
          type,
          url: part.data,
          ...(extras.mediaType === false ? {} : { mediaType: part.mediaType }),
        });
      }
      return withOptions({
        type,
        data: part.data,
        mediaType: part.mediaType,
        ...(part.filename === undefined ? {} : { filename: part.filename }),
      });
    }
  }
}

/** The AI SDK content kind a core tool result part becomes when nothing else is recorded. */
function inferredType(part: ToolResultContentPart): string {
  switch (part.type) {
    case 'text':
      return 'text';
    case 'image':
      return urlPattern.test(part.image) ? 'image-url' : 'image-data';
    case 'file':
      return urlPattern.test(part.data) ? 'file-url' : 'file-data';
  }
}
