import { deepEqual, type FilePart, type ImagePart, type JSONObject, type TextPart } from '@compaction/core';
import {
  fieldsExcept,
  isObject,
  isUrl,
  openaiMetadata,
  openaiMetadataOf,
  parseDataUrl,
  storedFields,
} from './openai-metadata.js';
import type { OpenAIResponsesItem } from './openai-responses-request.js';

/** Core parts a Responses content part maps to. */
export type OpenAIResponsesPart = TextPart | ImagePart | FilePart;

/** Part marker `type`: the part's type when it is not the default for its role. */
export const partTypeMarker = 'type';
/** Marker key: a part or item kept verbatim. */
export const verbatimKey = 'verbatim';

/** The text part type written by default: `output_text` in assistant messages, `input_text` elsewhere. */
export function defaultTextType(role: string): string {
  return role === 'assistant' ? 'output_text' : 'input_text';
}

/** Converts a message content part; shapes core cannot reproduce exactly are kept verbatim. */
export function responsesPartToCore(part: OpenAIResponsesItem, role: string): OpenAIResponsesPart {
  const decoded = decode(part, role);
  if (decoded !== undefined && isWellFormed(decoded) && deepEqual(coreToResponsesPart(decoded, role), part))
    return decoded;
  return verbatimTextPart(part);
}

/** A text part holding a part or item verbatim; its text is the JSON, so counts and summaries see it. */
export function verbatimTextPart(value: OpenAIResponsesItem): TextPart {
  return {
    type: 'text',
    text: JSON.stringify(value),
    metadata: { openai: { [verbatimKey]: value as JSONObject } },
  };
}

/** The verbatim part or item a core part holds, if any. */
export function verbatimOf(part: { metadata?: JSONObject }): OpenAIResponsesItem | undefined {
  const value = openaiMetadataOf(part)[verbatimKey];
  return isObject(value) ? (value as OpenAIResponsesItem) : undefined;
}

/** Converts a core part to a message content part for a message of `role`. */
export function coreToResponsesPart(part: OpenAIResponsesPart, role: string): OpenAIResponsesItem {
  const verbatim = verbatimOf(part);
  if (verbatim !== undefined) return verbatim;
  const fields = storedFields(part);
  switch (part.type) {
    case 'text': {
      const type = openaiMetadataOf(part)[partTypeMarker];
      if (type === 'refusal') return { type: 'refusal', refusal: part.text, ...fields };
      return { type: typeof type === 'string' ? type : defaultTextType(role), text: part.text, ...fields };
    }
    case 'image': {
      const url = isUrl(part.image)
        ? part.image
        : `data:${part.mediaType ?? 'image/png'};base64,${part.image}`;
      return { type: 'input_image', image_url: url, detail: 'auto', ...fields };
    }
    case 'file': {
      if (part.mediaType.startsWith('text/') && !isUrl(part.data)) {
        return { type: defaultTextType(role), text: part.data, ...fields };
      }
      if (part.data.startsWith('http://') || part.data.startsWith('https://')) {
        return { type: 'input_file', file_url: part.data, ...fields };
      }
      const fileData = part.data.startsWith('data:')
        ? part.data
        : `data:${part.mediaType};base64,${part.data}`;
      return {
        type: 'input_file',
        file_data: fileData,
        ...(part.filename === undefined ? {} : { filename: part.filename }),
        ...fields,
      };
    }
  }
}

function decode(part: OpenAIResponsesItem, role: string): OpenAIResponsesPart | undefined {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      if (typeof part.text !== 'string') return undefined;
      return {
        type: 'text',
        text: part.text,
        ...openaiMetadata(
          { [partTypeMarker]: part.type === defaultTextType(role) ? undefined : part.type },
          fieldsExcept(part, ['type', 'text']),
        ),
      };
    case 'refusal':
      if (typeof part.refusal !== 'string') return undefined;
      return {
        type: 'text',
        text: part.refusal,
        ...openaiMetadata({ [partTypeMarker]: 'refusal' }, fieldsExcept(part, ['type', 'refusal'])),
      };
    case 'input_image': {
      if (typeof part.image_url !== 'string') return undefined;
      const fields = fieldsExcept(part, ['type', 'image_url', ...(part.detail === 'auto' ? ['detail'] : [])]);
      return { type: 'image', image: part.image_url, ...openaiMetadata({}, fields) };
    }
    case 'input_file': {
      if (typeof part.file_url === 'string' && part.file_data === undefined) {
        return {
          type: 'file',
          data: part.file_url,
          mediaType: 'application/pdf',
          ...openaiMetadata({}, fieldsExcept(part, ['type', 'file_url'])),
        };
      }
      if (typeof part.file_data !== 'string') return undefined;
      const parsed = parseDataUrl(part.file_data);
      if (parsed === undefined) return undefined;
      return {
        type: 'file',
        data: parsed.data,
        mediaType: parsed.mediaType,
        ...(typeof part.filename === 'string' ? { filename: part.filename } : {}),
        ...openaiMetadata({}, fieldsExcept(part, ['type', 'file_data', 'filename'])),
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
