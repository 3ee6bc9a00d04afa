import { deepEqual, type FilePart, type ImagePart, type JSONObject, type TextPart } from '@compaction/core';
import { fieldsExcept, isUrl, openaiMetadata, parseDataUrl } from './openai-metadata.js';

/** Core parts a content part of either API maps to. */
export type OpenAIContentPart = TextPart | ImagePart | FilePart;

/**
 * The core part of a content part: its decoding when encoding that gives the same content part back, so the
 * conversion stays lossless; else a text part holding the content part verbatim under `metadata.openai[key]`.
 */
export function losslessPart<Wire>(
  part: Wire,
  decoded: OpenAIContentPart | undefined,
  encode: (decoded: OpenAIContentPart) => Wire,
  key: string,
): OpenAIContentPart {
  if (decoded !== undefined && isWellFormed(decoded) && deepEqual(encode(decoded), part)) return decoded;
  return verbatimTextPart(part, key);
}

/**
 * A text part holding a part or item verbatim under `metadata.openai[key]`; its text is the JSON, so counts
 * and summaries see it.
 */
export function verbatimTextPart(value: unknown, key: string): TextPart {
  return { type: 'text', text: JSON.stringify(value), metadata: { openai: { [key]: value as JSONObject } } };
}

/** The URL an image part is sent as: its URL, or its base64 data as a data URL. */
export function imageUrlOf(part: ImagePart): string {
  return isUrl(part.image) ? part.image : `data:${part.mediaType ?? 'image/png'};base64,${part.image}`;
}

/** The data URL a file part's data is sent as (both APIs take inline files as data URLs). */
export function fileDataUrlOf(part: FilePart): string {
  return part.data.startsWith('data:') ? part.data : `data:${part.mediaType};base64,${part.data}`;
}

/**
 * The text part of a content part whose text is in `field` (`text`, or `refusal`), with the converter's
 * `markers` and the part's other fields stored; `undefined` when that field is not a string.
 */
export function textPartOf(
  part: JSONObject,
  field: 'text' | 'refusal',
  markers: JSONObject = {},
): TextPart | undefined {
  const text = part[field];
  if (typeof text !== 'string') return undefined;
  return { type: 'text', text, ...openaiMetadata(markers, fieldsExcept(part, ['type', field])) };
}

/** Whether a file part is sent as plain text: a text file whose data is inline, not a URL. */
export function isInlineText(part: FilePart): boolean {
  return part.mediaType.startsWith('text/') && !isUrl(part.data);
}

/**
 * The file part of an inline file: its base64 data URL parsed, its `filename` when it is a string, the other
 * `fields` stored; `undefined` when the URL is not a base64 data URL.
 */
export function inlineFilePart(dataUrl: string, filename: unknown, fields: JSONObject): FilePart | undefined {
  const parsed = parseDataUrl(dataUrl);
  if (parsed === undefined) return undefined;
  return {
    type: 'file',
    data: parsed.data,
    mediaType: parsed.mediaType,
    ...(typeof filename === 'string' ? { filename } : {}),
    ...openaiMetadata({}, fields),
  };
}

/** Whether core accepts the part: an image needs its data or URL, a file its media type. */
function isWellFormed(part: OpenAIContentPart): boolean {
  if (part.type === 'image') return part.image !== '';
  if (part.type === 'file') return part.mediaType !== '';
  return true;
}
