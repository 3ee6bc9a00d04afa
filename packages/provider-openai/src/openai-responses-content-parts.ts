import type { JSONObject, TextPart } from '@compaction/core';
import {
  fileDataUrlOf,
  imageUrlOf,
  inlineFilePart,
  isInlineText,
  losslessPart,
  type OpenAIContentPart,
  textPartOf,
  verbatimTextPart as verbatimPart,
} from './openai-content-parts.js';
import { fieldsExcept, isObject, openaiMetadata, openaiMetadataOf, storedFields } from './openai-metadata.js';
import type { OpenAIResponsesItem } from './openai-responses-request.js';

/** Core parts a Responses content part maps to. */
export type OpenAIResponsesPart = OpenAIContentPart;

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
  return losslessPart(part, decode(part, role), (decoded) => coreToResponsesPart(decoded, role), verbatimKey);
}

/** A text part holding a part or item verbatim; its text is the JSON, so counts and summaries see it. */
export function verbatimTextPart(value: OpenAIResponsesItem): TextPart {
  return verbatimPart(value, verbatimKey);
}

/** The verbatim part or item a core part holds, if any. */
export function verbatimOf(part: { metadata?: JSONObject }): OpenAIResponsesItem | undefined {
  const value = openaiMetadataOf(part)[verbatimKey];
  return isObject(value) ? (value as OpenAIResponsesItem) : undefined;
}

/** Whether a part holds a Responses `compaction` item, kept verbatim as every item core has no part for. */
export function isCompactionItemPart(part: { metadata?: JSONObject }): boolean {
  return verbatimOf(part)?.type === 'compaction';
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
      return { type: 'input_image', image_url: imageUrlOf(part), detail: 'auto', ...fields };
    }
    case 'file': {
      if (isInlineText(part)) return { type: defaultTextType(role), text: part.data, ...fields };
      if (part.data.startsWith('http://') || part.data.startsWith('https://')) {
        return { type: 'input_file', file_url: part.data, ...fields };
      }
      return {
        type: 'input_file',
        file_data: fileDataUrlOf(part),
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
      return textPartOf(part, 'text', {
        [partTypeMarker]: part.type === defaultTextType(role) ? undefined : part.type,
      });
    case 'refusal':
      return textPartOf(part, 'refusal', { [partTypeMarker]: 'refusal' });
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
      return inlineFilePart(
        part.file_data,
        part.filename,
        fieldsExcept(part, ['type', 'file_data', 'filename']),
      );
    }
    default:
      return undefined;
  }
}
