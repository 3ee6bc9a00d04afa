import {
  deepEqual,
  type FilePart,
  type ImagePart,
  type JSONObject,
  type Metadata,
  type ReasoningPart,
  type TextPart,
} from '@compaction/core';
import {
  anthropicMetadata,
  anthropicMetadataOf,
  fieldsExcept,
  isObject,
  storedFields,
} from './anthropic-metadata.js';
import type { AnthropicContentBlock } from './anthropic-request.js';

/** Parts that map to a single Anthropic block other than `tool_use` and `tool_result`. */
export type AnthropicBlockPart = TextPart | ImagePart | FilePart | ReasoningPart;

/** Metadata key holding a block kept verbatim (a block type or shape core has no part for). */
export const verbatimBlockKey = 'block';

/**
 * Converts a block to a core part. A block whose shape the part cannot reproduce exactly (an unknown type,
 * a file id source...) becomes a text part that keeps the block verbatim in `metadata.anthropic.block`; its
 * text is the block as JSON, so token estimates and summaries still see it.
 */
export function blockToPart(block: AnthropicContentBlock): AnthropicBlockPart {
  const part = decodeBlock(block);
  if (part !== undefined && isWellFormed(part) && deepEqual(partToBlock(part), block)) return part;
  return verbatimPart(block);
}

/** Whether core accepts the part: an image needs its data or URL, a file its media type. */
function isWellFormed(part: AnthropicBlockPart): boolean {
  if (part.type === 'image') return part.image !== '';
  if (part.type === 'file') return part.mediaType !== '';
  return true;
}

/** Converts a core part back to its block: the exact block it came from, or a new one. */
export function partToBlock(part: AnthropicBlockPart): AnthropicContentBlock {
  const verbatim = anthropicMetadataOf(part)?.[verbatimBlockKey];
  if (isObject(verbatim) && typeof verbatim.type === 'string') return verbatim as AnthropicContentBlock;
  const extra = storedFields(part, [verbatimBlockKey]);
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text, ...extra };
    case 'image':
      return { type: 'image', source: imageSource(part), ...extra };
    case 'file':
      return { type: 'document', source: documentSource(part), ...extra };
    case 'reasoning':
      if (part.redactedData !== undefined)
        return { type: 'redacted_thinking', data: part.redactedData, ...extra };
      return {
        type: 'thinking',
        thinking: part.text,
        ...(part.signature === undefined ? {} : { signature: part.signature }),
        ...extra,
      };
  }
}

function decodeBlock(block: AnthropicContentBlock): AnthropicBlockPart | undefined {
  switch (block.type) {
    case 'text':
      if (typeof block.text !== 'string') return undefined;
      return { type: 'text', text: block.text, ...anthropicMetadata(fieldsExcept(block, ['type', 'text'])) };
    case 'image': {
      const source = block.source;
      const extra = anthropicMetadata(fieldsExcept(block, ['type', 'source']));
      if (!isObject(source)) return undefined;
      if (
        source.type === 'base64' &&
        typeof source.data === 'string' &&
        typeof source.media_type === 'string'
      ) {
        return { type: 'image', image: source.data, mediaType: source.media_type, ...extra };
      }
      if (source.type === 'url' && typeof source.url === 'string') {
        return { type: 'image', image: source.url, ...extra };
      }
      return undefined;
    }
    case 'document': {
      const source = block.source;
      const extra = anthropicMetadata(fieldsExcept(block, ['type', 'source']));
      if (!isObject(source)) return undefined;
      if (
        (source.type === 'base64' || source.type === 'text') &&
        typeof source.data === 'string' &&
        typeof source.media_type === 'string'
      ) {
        return { type: 'file', data: source.data, mediaType: source.media_type, ...extra };
      }
      if (source.type === 'url' && typeof source.url === 'string') {
        return { type: 'file', data: source.url, mediaType: 'application/pdf', ...extra };
      }
      return undefined;
    }
    case 'thinking':
      // Unsigned thinking cannot be sent back as reasoning (it would be dropped): it stays verbatim.
      if (typeof block.thinking !== 'string' || typeof block.signature !== 'string') return undefined;
      return {
        type: 'reasoning',
        text: block.thinking,
        ...(typeof block.signature === 'string' ? { signature: block.signature } : {}),
        ...anthropicMetadata(fieldsExcept(block, ['type', 'thinking', 'signature'])),
      };
    case 'redacted_thinking':
      if (typeof block.data !== 'string') return undefined;
      return {
        type: 'reasoning',
        text: '',
        redactedData: block.data,
        ...anthropicMetadata(fieldsExcept(block, ['type', 'data'])),
      };
    default:
      return undefined;
  }
}

function verbatimPart(block: AnthropicContentBlock): TextPart {
  return {
    type: 'text',
    text: JSON.stringify(block),
    metadata: { anthropic: { [verbatimBlockKey]: block as JSONObject } },
  };
}

function imageSource(part: ImagePart): JSONObject {
  const dataUrl = /^data:([^;,]+);base64,(.*)$/s.exec(part.image);
  if (dataUrl !== null) return { type: 'base64', media_type: dataUrl[1]!, data: dataUrl[2]! };
  if (isUrl(part.image)) return { type: 'url', url: part.image };
  return { type: 'base64', media_type: part.mediaType ?? 'image/png', data: part.image };
}

function documentSource(part: FilePart): JSONObject {
  if (isUrl(part.data)) return { type: 'url', url: part.data };
  if (part.mediaType.startsWith('text/'))
    return { type: 'text', media_type: part.mediaType, data: part.data };
  return { type: 'base64', media_type: part.mediaType, data: part.data };
}

function isUrl(value: string): boolean {
  return value.startsWith('https://') || value.startsWith('http://');
}

/** Whether a part holds an Anthropic `compaction` block (kept verbatim, as every block core has no part for). */
export function isCompactionPart(part: { metadata?: Metadata }): boolean {
  const verbatim = anthropicMetadataOf(part)?.[verbatimBlockKey];
  return isObject(verbatim) && verbatim.type === 'compaction';
}
