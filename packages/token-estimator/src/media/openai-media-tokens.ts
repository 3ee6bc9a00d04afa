import type { ImageSize } from './image-dimensions.js';

/** How an OpenAI model family prices an image. */
export type OpenAIImageRule =
  | {
      /** Scale to fit 2048x2048, then the shortest side to 768 px; count 512-px tiles. */
      kind: 'tiles';
      baseTokens: number;
      tileTokens: number;
    }
  | {
      /** Count 32-px patches up to a cap (the image is scaled down to fit it), times a multiplier. */
      kind: 'patches';
      maxPatches: number;
      multiplier: number;
    };

/** OpenAI's image detail: `low` is a flat price on tile models; `auto` is priced as `high`. */
export type OpenAIImageDetail = 'low' | 'high' | 'auto';

const tiles = (baseTokens: number, tileTokens: number): OpenAIImageRule => ({
  kind: 'tiles',
  baseTokens,
  tileTokens,
});
const patches = (multiplier: number, maxPatches = 1536): OpenAIImageRule => ({
  kind: 'patches',
  maxPatches,
  multiplier,
});

// https://platform.openai.com/docs/guides/images-vision#calculating-costs: the families and their numbers, most
// specific model id first. Later community measurements report lower multipliers for gpt-5-mini (1.2) and
// gpt-5-nano (1.5) (https://community.openai.com/t/gpt-5-mini-image-input-token-calculation-discrepancy-with-official-faq-formula/1344040);
// the documented, larger ones are kept.
export const openaiImageRules: ReadonlyArray<{ models: RegExp; rule: OpenAIImageRule }> = [
  { models: /^gpt-4o-mini/, rule: tiles(2833, 5667) },
  { models: /^gpt-4\.1-mini/, rule: patches(1.62) },
  { models: /^gpt-4\.1-nano/, rule: patches(2.46) },
  { models: /^gpt-5-mini/, rule: patches(1.62) },
  { models: /^gpt-5-nano/, rule: patches(2.46) },
  { models: /^(?:o4-mini|codex-mini)/, rule: patches(1.72) },
  { models: /^(?:gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-4-turbo)/, rule: tiles(85, 170) },
  { models: /^(?:o1|o3)/, rule: tiles(75, 150) },
  { models: /^computer-use-preview/, rule: tiles(65, 129) },
  { models: /^gpt-5(?:-chat-latest|-\d{4}-\d{2}-\d{2})?$/, rule: tiles(70, 140) },
];

// Models the table does not name (gpt-5.x and later) are priced by the larger of the gpt-4o tiles and of
// patches with the 2,500-patch cap measured on gpt-5.4 (https://community.openai.com/t/introducing-gpt-5-4-mini-and-nano-our-most-capable-small-models-yet/1377015)
// at the largest documented patch multiplier of a full-size family, 1.62.
const unknownModelRules: readonly OpenAIImageRule[] = [tiles(85, 170), patches(1.62, 2500)];

/** The rules that price an image for a model: one for a known family, the larger of two otherwise. */
export function openaiImageRulesFor(model?: string): readonly OpenAIImageRule[] {
  const known = model === undefined ? undefined : openaiImageRules.find((entry) => entry.models.test(model));
  return known ? [known.rule] : unknownModelRules;
}

/** Tokens of an image on an OpenAI model, by the model family's documented rule. */
export function openaiImageTokens(
  size: ImageSize,
  model?: string,
  detail: OpenAIImageDetail = 'auto',
): number {
  return Math.max(...openaiImageRulesFor(model).map((rule) => imageTokensByRule(size, rule, detail)));
}

/** The most tokens any image can cost on an OpenAI model: what an image of unknown size is priced at. */
export function openaiMaxImageTokens(model?: string, detail: OpenAIImageDetail = 'auto'): number {
  return Math.max(...openaiImageRulesFor(model).map((rule) => maxTokensByRule(rule, detail)));
}

// https://platform.openai.com/docs/guides/pdf-files: the model reads the extracted text and an image of each
// page. OpenAI gives no figure per page; Anthropic's upper figure for a page's text is used.
export const openaiPdfTextTokensPerPage = 3000;

/** Tokens of a PDF page on an OpenAI model: its text, plus the page as the largest image. */
export function openaiPdfPageTokens(model?: string): number {
  return openaiPdfTextTokensPerPage + openaiMaxImageTokens(model);
}

function imageTokensByRule(size: ImageSize, rule: OpenAIImageRule, detail: OpenAIImageDetail): number {
  if (rule.kind === 'patches') {
    // Below the cap, the documented count; above it the provider scales the image to at most the cap.
    const count = Math.ceil(size.width / 32) * Math.ceil(size.height / 32);
    return Math.ceil(Math.min(count, rule.maxPatches) * rule.multiplier);
  }
  if (detail === 'low') return rule.baseTokens;
  let { width, height } = size;
  const fit = Math.min(1, 2048 / Math.max(width, height));
  width *= fit;
  height *= fit;
  const shorten = Math.min(1, 768 / Math.min(width, height));
  width *= shorten;
  height *= shorten;
  return rule.baseTokens + rule.tileTokens * tilesAcross(width) * tilesAcross(height);
}

// Scaling leaves 2048 or 768 a hair above or below the exact value; a hair over must not add a tile.
function tilesAcross(pixels: number): number {
  return Math.ceil(pixels / 512 - 1e-9);
}

function maxTokensByRule(rule: OpenAIImageRule, detail: OpenAIImageDetail): number {
  if (rule.kind === 'patches') return Math.ceil(rule.maxPatches * rule.multiplier);
  // After scaling, at most 768 x 2048 px: 2 x 4 tiles.
  return detail === 'low' ? rule.baseTokens : rule.baseTokens + rule.tileTokens * 8;
}
