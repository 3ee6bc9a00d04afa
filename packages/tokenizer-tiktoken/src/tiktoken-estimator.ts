import {
  createMessageEstimator,
  InvalidOptionsError,
  type MessageOverhead,
  type TokenEstimator,
} from '@compaction/core';
import { get_encoding, type Tiktoken } from 'tiktoken';
import {
  encodingForModel,
  type TiktokenEncodingName,
  tiktokenEncodingNames,
} from './tiktoken-encoding-for-model.js';

/** Settings of {@link createTiktokenEstimator}. */
export interface TiktokenEstimatorSettings {
  /** The model whose encoding (see {@link encodingForModel}), unless `encoding` is given, and image rule to use. */
  model?: string;
  /** The encoding. Default: the model's, or `o200k_base` without a model. */
  encoding?: TiktokenEncodingName;
  /** Message overhead on top of the text, as in core's `createMessageEstimator`. */
  overhead?: Partial<MessageOverhead>;
  /**
   * Creates the encoder; default tiktoken's `get_encoding`. Inject one from `tiktoken/lite` or `tiktoken/init`
   * on runtimes that load WASM differently (edge, browsers).
   */
  getEncoding?: (encoding: TiktokenEncodingName) => Tiktoken;
}

/** An exact {@link TokenEstimator} over tiktoken, holding a WASM encoder until {@link dispose} frees it. */
export interface TiktokenEstimator extends TokenEstimator {
  /** The encoding counted with. */
  readonly encoding: TiktokenEncodingName;
  /**
   * Frees the WASM encoder. Counting again later creates a new one, so calling this when a conversation ends
   * is always safe.
   */
  dispose(): void;
}

// No special tokens are allowed, and none are refused: `<|endoftext|>` in a message is ordinary text, as the
// provider treats it, and counting it never throws (tiktoken's default refuses it).
const noSpecialTokens: string[] = [];

/**
 * Exact OpenAI token counts with tiktoken: text is encoded with the model's encoding (o200k_base or
 * cl100k_base), and messages add core's documented overhead. The encoder is created on the first count and
 * freed by `dispose()`.
 */
export function createTiktokenEstimator(settings: TiktokenEstimatorSettings = {}): TiktokenEstimator {
  const encoding = settings.encoding ?? (settings.model ? encodingForModel(settings.model) : 'o200k_base');
  if (!tiktokenEncodingNames.includes(encoding)) {
    throw new InvalidOptionsError({
      subject: 'tiktoken estimator',
      issues: [{ path: 'encoding', message: `must be one of ${tiktokenEncodingNames.join(', ')}` }],
    });
  }
  const getEncoding = settings.getEncoding ?? get_encoding;
  let encoder: Tiktoken | undefined;

  const countText = (text: string): number => {
    if (text.length === 0) return 0;
    encoder ??= getEncoding(encoding);
    return encoder.encode(text, noSpecialTokens, noSpecialTokens).length;
  };

  const estimator = createMessageEstimator({
    name: `tiktoken:${encoding}`,
    countText,
    ...(settings.overhead ? { overhead: settings.overhead } : {}),
    // Images and PDFs by OpenAI's rule for the model's family.
    media: { provider: 'openai', ...(settings.model ? { model: settings.model } : {}) },
  });
  return {
    ...estimator,
    encoding,
    dispose() {
      encoder?.free();
      encoder = undefined;
    },
  };
}
