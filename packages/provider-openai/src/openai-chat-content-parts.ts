import type { FilePart, ImagePart, TextPart } from '@compaction/core';
import type { OpenAIChatContentPart } from './openai-chat-request.js';
import {
  fileDataUrlOf,
  imageUrlOf,
  inlineFilePart,
  isInlineText,
  losslessPart,
  textPartOf,
  verbatimTextPart,
} from './openai-content-parts.js';
import {
  fieldsExcept,
  isObject,
  isUrl,
  openaiMetadata,
  openaiMetadataOf,
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
  return losslessPart(part, decode(part), coreToChatPart, verbatimPartKey);
}

/** A text part holding a content part verbatim, for a content part core has no exact part for. */
export function verbatimChatPart(part: OpenAIChatContentPart): TextPart {
  return verbatimTextPart(part, verbatimPartKey);
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
      const url = imageUrlOf(part);
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
      if (isInlineText(part)) return { type: 'text', text: part.data, ...fields };
      return {
        type: 'file',
        file: {
          file_data: fileDataUrlOf(part),
          ...(part.filename === undefined ? {} : { filename: part.filename }),
        },
        ...fields,
      };
    }
  }
}

function decode(part: OpenAIChatContentPart): OpenAIChatPart | undefined {
  switch (part.type) {
    case 'text':
      return textPartOf(part, 'text');
    case 'refusal':
      return textPartOf(part, 'refusal', { [refusalKey]: 'part' });
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
      return inlineFilePart(file.file_data, file.filename, fieldsExcept(part, ['type', 'file']));
    }
    default:
      return undefined;
  }
}
