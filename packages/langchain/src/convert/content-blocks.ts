import { deepEqual, type Part } from '@compaction/core';
import { isRecord, type PartSlot, slotOf, withoutSlot, withSlot } from './langchain-slot.js';

/** A LangChain content block, read as a plain record. */
export type ContentBlock = Record<string, unknown>;

/** Where a block stands: each core role takes only some part kinds. */
export type BlockPlace = 'system' | 'user' | 'assistant' | 'tool';

/** Tool calls are read apart (from `tool_calls`), so they are not among an assistant's content parts here. */
const allowedParts: Record<BlockPlace, ReadonlySet<Part['type']>> = {
  system: new Set(['text']),
  user: new Set(['text', 'image', 'file']),
  assistant: new Set(['text', 'reasoning', 'file']),
  tool: new Set(['text', 'image', 'file']),
};

const string = (value: unknown): value is string => typeof value === 'string';

/**
 * The core part a block means, without any slot: LangChain v1's standard blocks, the v0 data blocks and the
 * provider-native ones LangChain's chat models return and accept (Anthropic thinking, OpenAI `image_url`).
 * A block this does not know, or one not allowed where it stands, is carried as text: its JSON, which is also
 * what it costs in tokens, roughly.
 */
export function bareBlockPart(block: ContentBlock, place: BlockPlace): Part {
  const part = knownBlockPart(block);
  if (part !== undefined && allowedParts[place].has(part.type)) return part;
  return { type: 'text', text: jsonOf(block) };
}

function knownBlockPart(block: ContentBlock): Part | undefined {
  switch (block.type) {
    case 'text':
      return string(block.text) ? { type: 'text', text: block.text } : undefined;
    case 'thinking':
      if (!string(block.thinking)) return undefined;
      return {
        type: 'reasoning',
        text: block.thinking,
        ...(string(block.signature) ? { signature: block.signature } : {}),
      };
    case 'redacted_thinking':
      return string(block.data) ? { type: 'reasoning', text: '', redactedData: block.data } : undefined;
    case 'reasoning':
      return string(block.reasoning) ? { type: 'reasoning', text: block.reasoning } : undefined;
    case 'image_url': {
      const url = isRecord(block.image_url) ? block.image_url.url : block.image_url;
      return string(url) ? { type: 'image', image: url } : undefined;
    }
    case 'image':
      return imagePart(block);
    case 'file':
    case 'audio':
    case 'video':
      return filePart(block);
    case 'text-plain':
      return string(block.text)
        ? { type: 'file', data: block.text, mediaType: mediaTypeOf(block) ?? 'text/plain' }
        : undefined;
    default:
      return undefined;
  }
}

function imagePart(block: ContentBlock): Part | undefined {
  const source = isRecord(block.source) ? block.source : undefined;
  const url = block.url ?? (source?.type === 'url' ? source.url : undefined);
  if (string(url)) return { type: 'image', image: url };
  const data = block.data ?? source?.data;
  if (!string(data)) return undefined;
  const mediaType = mediaTypeOf(block) ?? source?.media_type;
  return { type: 'image', image: data, ...(string(mediaType) ? { mediaType } : {}) };
}

function filePart(block: ContentBlock): Part | undefined {
  const data = block.data ?? block.url;
  if (!string(data)) return undefined;
  const metadata = isRecord(block.metadata) ? block.metadata : {};
  const filename = metadata.filename ?? metadata.name;
  return {
    type: 'file',
    data,
    mediaType: mediaTypeOf(block) ?? 'application/octet-stream',
    ...(string(filename) ? { filename } : {}),
  };
}

function mediaTypeOf(block: ContentBlock): string | undefined {
  const mediaType = block.mimeType ?? block.mime_type;
  return string(mediaType) ? mediaType : undefined;
}

function jsonOf(block: ContentBlock): string {
  try {
    return JSON.stringify(block) ?? String(block);
  } catch {
    // A block with a cycle or a bigint: its text still stands for it in the count.
    return String(block);
  }
}

const isUrl = (value: string) => /^(?:https?|data):/i.test(value);

/** The block a part is written as when nothing of its LangChain form was kept: LangChain v1's standard blocks. */
export function freshBlock(part: Part): ContentBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'reasoning':
      if (part.redactedData !== undefined) return { type: 'redacted_thinking', data: part.redactedData };
      if (part.signature !== undefined)
        return { type: 'thinking', thinking: part.text, signature: part.signature };
      return { type: 'reasoning', reasoning: part.text };
    case 'image':
      if (isUrl(part.image)) return { type: 'image', url: part.image };
      return {
        type: 'image',
        data: part.image,
        ...(part.mediaType === undefined ? {} : { mimeType: part.mediaType }),
      };
    case 'file': {
      const metadata = part.filename === undefined ? {} : { metadata: { filename: part.filename } };
      if (part.mediaType.startsWith('text/') && !isUrl(part.data))
        return { type: 'text-plain', text: part.data, mimeType: part.mediaType, ...metadata };
      const source = isUrl(part.data) ? { url: part.data } : { data: part.data };
      return { type: 'file', ...source, mimeType: part.mediaType, ...metadata };
    }
    default:
      // Tool calls and results are messages' business, never content blocks here.
      throw new TypeError(`a ${part.type} part is not a content block`);
  }
}

/** The core part of a content block; the block is kept in the part's slot unless writing the part gives it back. */
export function decodeBlock(block: ContentBlock, place: BlockPlace): Part {
  const part = bareBlockPart(block, place);
  if (deepEqual(freshBlock(part), block)) return part;
  const slot: PartSlot = { block };
  return { ...part, metadata: withSlot(undefined, slot) } as Part;
}

/**
 * The content block of a part: the block it was read from while the part still means what that block means
 * (a strategy that changed it gets a fresh block), or a fresh one.
 */
export function encodePart(part: Part, place: BlockPlace): ContentBlock {
  const block = slotOf<PartSlot>(part)?.block;
  if (block !== undefined && deepEqual(bareBlockPart(block, place), withoutSlot(part))) return block;
  return freshBlock(part);
}
