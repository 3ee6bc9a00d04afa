import {
  anthropicImageLimit,
  anthropicImageTokens,
  anthropicPdfPageTokens,
} from './anthropic-media-tokens.js';
import { base64ByteLength, base64Payload, decodeBase64Prefix } from './base64-bytes.js';
import {
  type ImageSize,
  imageHeaderBytes,
  isJpeg,
  jpegHeaderSearchBytes,
  readImageDimensions,
} from './image-dimensions.js';
import { openaiImageTokens, openaiMaxImageTokens, openaiPdfPageTokens } from './openai-media-tokens.js';
import { countPdfPages } from './pdf-page-count.js';

/** Whose published rule prices images and documents. */
export type MediaProvider = 'anthropic' | 'openai';

/** Settings of {@link createMediaPricer}. */
export interface MediaPricingSettings {
  /**
   * The provider whose rule applies. Default: none, and each image and document is priced at the larger of the
   * Anthropic and OpenAI rules, so that neither is under-counted.
   */
  provider?: MediaProvider;
  /** The model id, for the limits and numbers of its family. Default: the largest of the provider's families. */
  model?: string;
}

/** Prices images and documents given as base64 data, `data:` URLs or URLs. */
export interface MediaPricer {
  /** Tokens of an image: by its size when its header can be read, else the largest image of the rule. */
  image(source: string): number;
  /**
   * Tokens of a file: PDFs by their pages, images as images; `undefined` for other files (text, or binary
   * data the caller counts as it sees fit).
   */
  file(data: string, mediaType: string): number | undefined;
  /**
   * Tokens of a provider content block that a converter kept verbatim as text, when that block is media the text
   * does not show: an Anthropic `image` whose `source.type` is `file` (a Files API id) costs the rule's largest
   * image, since its size cannot be known offline. `undefined` for any other block, which is counted as text.
   */
  verbatimBlock(block: unknown): number | undefined;
}

// Without a visible page count, a PDF is priced at one page per 3 KB (a page of compressed text and little
// else), at most Anthropic's 100 pages per request (https://platform.claude.com/docs/en/build-with-claude/pdf-support).
const pdfBytesPerPageFallback = 3072;
const pdfMaxPagesFallback = 100;

/**
 * Creates a {@link MediaPricer} for a provider's published rules: images by their pixel size, read from the
 * PNG, JPEG, GIF or WebP header, and PDFs by their pages. What cannot be read is priced at the rule's largest
 * value, never below it.
 */
export function createMediaPricer(settings: MediaPricingSettings = {}): MediaPricer {
  const { provider, model } = settings;
  const anthropic = provider !== 'openai';
  const openai = provider !== 'anthropic';
  const imageTokens = (size: ImageSize | undefined): number =>
    Math.max(
      anthropic ? (size ? anthropicImageTokens(size, model) : anthropicImageLimit(model).maxTokens) : 0,
      openai ? (size ? openaiImageTokens(size, model) : openaiMaxImageTokens(model)) : 0,
    );
  const pageTokens = Math.max(
    anthropic ? anthropicPdfPageTokens : 0,
    openai ? openaiPdfPageTokens(model) : 0,
  );

  const image = (source: string): number =>
    imageTokens(isRemote(source) ? undefined : imageSizeOf(base64Payload(source)));
  return {
    image,
    file(data, mediaType) {
      if (mediaType.startsWith('image/')) return image(data);
      if (mediaType !== 'application/pdf' || isRemote(data)) return undefined;
      return pageTokens * pdfPageCount(base64Payload(data));
    },
    verbatimBlock(block) {
      return isFileImage(block) ? imageTokens(undefined) : undefined;
    },
  };
}

/** An Anthropic image block given by a Files API id: `{ type: 'image', source: { type: 'file', file_id } }`. */
function isFileImage(block: unknown): boolean {
  if (typeof block !== 'object' || block === null) return false;
  const { type, source } = block as { type?: unknown; source?: unknown };
  return (
    type === 'image' &&
    typeof source === 'object' &&
    source !== null &&
    (source as { type?: unknown }).type === 'file'
  );
}

function isRemote(source: string): boolean {
  return /^https?:\/\//.test(source);
}

function imageSizeOf(base64: string): ImageSize | undefined {
  const header = decodeBase64Prefix(base64, imageHeaderBytes);
  if (header === undefined) return undefined;
  if (!isJpeg(header)) return readImageDimensions(header);
  const prefix = decodeBase64Prefix(base64, jpegHeaderSearchBytes);
  return prefix && readImageDimensions(prefix);
}

function pdfPageCount(base64: string): number {
  const byteLength = base64ByteLength(base64);
  const bytes = decodeBase64Prefix(base64, byteLength);
  const pages = bytes && countPdfPages(bytes);
  return pages ?? Math.min(Math.max(1, Math.ceil(byteLength / pdfBytesPerPageFallback)), pdfMaxPagesFallback);
}
