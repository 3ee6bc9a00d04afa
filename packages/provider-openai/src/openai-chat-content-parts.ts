import { deepEqual, type FilePart, type ImagePart, type JSONObject, type TextPart } from '@compaction/core';
import type { OpenAIChatContentPart } from './openai-chat-request.js';
import {
  fieldsExcept,
  isObject,
  isUrl,
  openaiMetadata,
  openaiMetadataOf,
  parseDataUrl,
  storedFields,
} from './openai-metadata.js';

/** Core parts a Chat Completions content part maps to. */
export type OpenAIChatPart = TextPart | ImagePart | FilePart;

/** Marker key: a content part kept verbatim (a type or shape core has no part for). */
export const verbatimPartKey = 'part';
/** Marker key on a text part: it was a `refusal` content part. */
export const refusalKey = 'refusal';

/**
 * Converts a content part to a core part. A part the core part cannot reproduce exactly (a `file_id`, an
 * unknown type...) becomes a text part holding it verbatim in `metadata.openai.part`.
 */
export function chatPartToCore(part: OpenAIChatContentPart): OpenAIChatPart {
  const decoded = decode(part);
  if (decoded !== undefined && isWellFormed(decoded) && deepEqual(coreToChatPart(decoded), part))
    return decoded;
  return {
    type: 'text',
    text: JSON.stringify(part),
    metadata: { openai: { [verbatimPartKey]: part as JSONObject } },
  };
}

/** Converts a core part to a Chat Completions content part. */
export function coreToChatPart(part: OpenAIChatPart): OpenAIChatContentPart {
  const marks = openaiMetadataOf(part);
  const verbatim = marks[verbatimPartKey];
  if (isObject(verbatim) && typeof verbatim.type === 'string') return verbatim as OpenAIChatContentPart;
  const fields = storedFields(part);
  switch (part.type) {
    case 'text':
      return marks[refusalKey] === 'part'
        ? { type: 'refusal', refusal: part.text, ...fields }
        : { type: 'text', text: part.text, ...fields };
    case 'image': {
      const { detail, ...rest } = fields;
      const url = isUrl(part.image)
        ? part.image
        : `data:${part.mediaType ?? 'image/png'};base64,${part.image}`;
      return { type: 'image_url', image_url: { url, ...(detail === undefined ? {} : { detail }) }, ...rest };
    }
    case 'file': {
      if (part.mediaType.startsWith('audio/') && !isUrl(part.data)) {
        return {
          type: 'input_audio',
          input_audio: { data: part.data, format: part.mediaType.slice(6) },
          ...fields,
        };
      }
      if (part.mediaType.startsWith('text/') && !isUrl(part.data))
        return { type: 'text', text: part.data, ...fields };
      const fileData = part.data.startsWith('data:')
        ? part.data
        : `data:${part.mediaType};base64,${part.data}`;
      return {
        type: 'file',
        file: { file_data: fileData, ...(part.filename === undefined ? {} : { filename: part.filename }) },
        ...fields,
      };
    }
  }
}

function decode(part: OpenAIChatContentPart): OpenAIChatPart | undefined {
  switch (part.type) {
    case 'text':
      if (typeof part.text !== 'string') return undefined;
      return { type: 'text', text: part.text, ...openaiMetadata({}, fieldsExcept(part, ['type', 'text'])) };
    case 'refusal':
      if (typeof part.refusal !== 'string') return undefined;
      return {
        type: 'text',
        text: part.refusal,
        ...openaiMetadata({ [refusalKey]: 'part' }, fieldsExcept(part, ['type', 'refusal'])),
      };
    case 'image_url': {
      const image = part.image_url;
      if (!isObject(image) || typeof image.url !== 'string') return undefined;
      return {
        type: 'image',
        image: image.url,
        ...openaiMetadata({}, { ...fieldsExcept(part, ['type', 'image_url']), detail: image.detail }),
      };
    }
    case 'input_audio': {
      const audio = part.input_audio;
      if (!isObject(audio) || typeof audio.data !== 'string' || typeof audio.format !== 'string')
        return undefined;
      return {
        type: 'file',
        data: audio.data,
        mediaType: `audio/${audio.format}`,
        ...openaiMetadata({}, fieldsExcept(part, ['type', 'input_audio'])),
      };
    }
    case 'file': {
      const file = part.file;
      if (!isObject(file) || typeof file.file_data !== 'string') return undefined;
      const parsed = parseDataUrl(file.file_data);
      if (parsed === undefined) return undefined;
      return {
        type: 'file',
        data: parsed.data,
        mediaType: parsed.mediaType,
        ...(typeof file.filename === 'string' ? { filename: file.filename } : {}),
        ...openaiMetadata({}, fieldsExcept(part, ['type', 'file'])),
      };
    }
    default:
      return undefined;
  }
}

/** Whether core accepts the part: an image needs its data or URL, a file its media type. */
function isWellFormed(part: TextPart | ImagePart | FilePart): boolean {
  if (part.type === 'image') return part.image !== '';
  if (part.type === 'file') return part.mediaType !== '';
  return true;
}
