import type { ImageSize } from './image-dimensions.js';

/** The largest image an Anthropic model reads before scaling it down. */
export interface AnthropicImageLimit {
  /** Longest edge in pixels. */
  longEdge: number;
  /** Most tokens an image costs. */
  maxTokens: number;
}

// https://platform.claude.com/docs/en/build-with-claude/vision ("Evaluate image size", "Calculate image
// costs"): tokens = (width px * height px) / 750; an image whose long edge is over 1568 px, or that is over
// about 1,600 tokens (1092x1092 px is 1,590), is first scaled down, keeping its aspect ratio.
export const anthropicPixelsPerToken = 750;
export const anthropicStandardImageLimit: AnthropicImageLimit = { longEdge: 1568, maxTokens: 1600 };
// Claude Opus 4.7 reads images up to 2576 px on the long edge (about 3.75 megapixels), about 4,784 tokens at
// most (same vision page; measured in https://www.claudecodecamp.com/p/images-cost-3x-more-tokens-in-claude-opus-4-7).
// Some pages give ceil(width / 28) * ceil(height / 28) for these models; the docs' width * height / 750 is what
// is used here, and it is the larger of the two from 28x28 px up.
export const anthropicHighResolutionImageLimit: AnthropicImageLimit = { longEdge: 2576, maxTokens: 4784 };

// https://platform.claude.com/docs/en/build-with-claude/pdf-support ("Estimate your costs"): each page is its
// extracted text, typically 1,500 to 3,000 tokens, plus the page as an image. With no text extraction here, a
// page is priced at the top of that range plus an image at the standard limit: 4,600 tokens, above the 2,100
// to 3,200 a page measured for dense pages (https://jackin.tailrocks.com/research/token-optimization/42-multimodal-token-economics/).
export const anthropicPdfTextTokensPerPage = 3000;
export const anthropicPdfPageTokens = anthropicPdfTextTokensPerPage + anthropicStandardImageLimit.maxTokens;

// Models known to read images at the standard limit: Claude 3.x, Sonnet 4.x, Haiku 4.x and Opus 4 to 4.6.
// Any other model id, and no model id, gets the larger limit, so that no image is under-counted.
const standardLimitModels =
  /claude-(?:[0-3][-.]|instant|(?:sonnet|haiku)-4|opus-4(?:-[0-6])?(?:-\d{8})?(?:$|@|-v\d))/;

/** The image limit of an Anthropic model: the standard one, or the larger one of newer and unknown models. */
export function anthropicImageLimit(model?: string): AnthropicImageLimit {
  return model !== undefined && standardLimitModels.test(model)
    ? anthropicStandardImageLimit
    : anthropicHighResolutionImageLimit;
}

/**
 * Tokens of an image on an Anthropic model: width * height / 750, at most the model's limit. An image whose long
 * edge is over the limit is priced as if only that edge were cut to the limit, which is never below the
 * provider's proportional downscaling and grows with either side.
 */
export function anthropicImageTokens(size: ImageSize, model?: string): number {
  const limit = anthropicImageLimit(model);
  const width = Math.min(size.width, limit.longEdge);
  const height = Math.min(size.height, limit.longEdge);
  return Math.min(Math.ceil((width * height) / anthropicPixelsPerToken), limit.maxTokens);
}
