export {
  type AnthropicImageLimit,
  anthropicHighResolutionImageLimit,
  anthropicImageLimit,
  anthropicImageTokens,
  anthropicPdfPageTokens,
  anthropicStandardImageLimit,
} from './anthropic-media-tokens.js';
export { type ImageSize, readImageDimensions } from './image-dimensions.js';
export {
  createMediaPricer,
  type MediaPricer,
  type MediaPricingSettings,
  type MediaProvider,
} from './media-pricer.js';
export {
  type OpenAIImageDetail,
  type OpenAIImageRule,
  openaiImageRules,
  openaiImageTokens,
  openaiMaxImageTokens,
  openaiPdfPageTokens,
} from './openai-media-tokens.js';
export { countPdfPages } from './pdf-page-count.js';
