import { CompactionAbortedError, type GenerateRequest, type ModelLimits } from '@compaction/core';

/** The provider's defaults that {@link resolveGenerateRequest} completes a request with. */
export interface GenerateDefaults {
  /** The provider's default model. */
  modelId: string;
  /** The provider's `maxOutputTokens` setting, if any. Default 4,096. */
  maxOutputTokens?: number | undefined;
  /** The provider's `modelLimits`, for the model's own output limit. */
  modelLimits: (modelId: string) => ModelLimits;
}

/** Output limit of a summary when neither the request nor the provider's settings give one. */
const defaultMaxOutputTokens = 4096;

/**
 * The model and output limit of a `generate` call: the request's own, else the provider's default model and
 * its `maxOutputTokens` setting (default 4,096) capped at the model's output limit. Throws
 * {@link CompactionAbortedError} when the request's signal is already aborted, before anything is sent.
 */
export function resolveGenerateRequest(
  request: GenerateRequest,
  defaults: GenerateDefaults,
): { modelId: string; maxOutputTokens: number } {
  if (request.abortSignal?.aborted === true) {
    throw new CompactionAbortedError({ cause: request.abortSignal.reason });
  }
  const modelId = request.modelId ?? defaults.modelId;
  const maxOutputTokens =
    request.maxOutputTokens ??
    Math.min(
      defaults.maxOutputTokens ?? defaultMaxOutputTokens,
      defaults.modelLimits(modelId).maxOutputTokens,
    );
  return { modelId, maxOutputTokens };
}
