import {
  CompactionAbortedError,
  type GenerateRequest,
  type Message,
  type Provider,
  type StrategyStepRunner,
  type TokenEstimator,
} from '@compaction/core';
import { checkSummary, type RequiredSection, type SummaryFailure } from './summary-failure.js';

/** How much a summarizer request may hold, from the summarizer model's own limits. */
export interface SummarizerWindow {
  contextWindow: number;
  /** The output limit sent: the plan's, capped by the model's. */
  outputTokens: number;
  /** No request may count more: the window minus the output. */
  hardLimit: number;
  /** What a request is planned to fill: `inputShare` of the hard limit, a margin for tokenizer differences. */
  inputBudget: number;
}

/** The summarizer's window for a request, or the failure to read its limits. */
export function summarizerWindow(
  provider: Provider,
  model: string | undefined,
  outputTokens: number,
  inputShare: number,
): { window: SummarizerWindow; failure?: undefined } | { window?: undefined; failure: SummaryFailure } {
  let limits: ReturnType<Provider['modelLimits']>;
  try {
    limits = provider.modelLimits(model);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { failure: { reason: 'provider-error', message, cause: error } };
  }
  const output = Math.max(1, Math.min(outputTokens, limits.maxOutputTokens));
  const hardLimit = limits.contextWindow - output;
  return {
    window: {
      contextWindow: limits.contextWindow,
      outputTokens: output,
      hardLimit,
      inputBudget: Math.floor(hardLimit * inputShare),
    },
  };
}

/** Tokens of a request's messages, as the estimator counts them. */
export function requestTokens(messages: readonly Message[], estimator: TokenEstimator): number {
  return messages.reduce((sum, message) => sum + estimator.countMessage(message), 0);
}

/** What one summarizer call needs besides its messages. */
export interface SummarizerCallSettings {
  provider: Provider;
  model: string | undefined;
  outputTokens: number;
  temperature: number | undefined;
  requiredSections: readonly RequiredSection[];
  abortSignal: AbortSignal | undefined;
  /** The Compactor's observers, when it has any: each call is one `generate` step. */
  observe?: StrategyStepRunner | undefined;
}

/** The call settings of a summary request: the input's provider and model settings, with its output limit. */
export function summarizerCallSettings(
  input: Omit<SummarizerCallSettings, 'outputTokens'>,
  outputTokens: number,
): SummarizerCallSettings {
  const { provider, model, temperature, requiredSections, abortSignal, observe } = input;
  return { provider, model, outputTokens, temperature, requiredSections, abortSignal, observe };
}

/**
 * Sends one summarizer request and checks the answer: the summary's text, or why it cannot be used. An abort
 * throws `CompactionAbortedError`; any other error of the provider is a `provider-error` failure.
 */
export async function callSummarizer(
  messages: Message[],
  settings: SummarizerCallSettings,
): Promise<{ text: string; failure?: undefined } | { text?: undefined; failure: SummaryFailure }> {
  const request: GenerateRequest = {
    messages,
    maxOutputTokens: settings.outputTokens,
    ...(settings.model === undefined ? {} : { modelId: settings.model }),
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings.abortSignal === undefined ? {} : { abortSignal: settings.abortSignal }),
  };
  let result: Awaited<ReturnType<Provider['generate']>>;
  try {
    const { provider, observe } = settings;
    const generate = () => provider.generate(request);
    const step = {
      kind: 'generate',
      provider: provider.name,
      model: settings.model ?? provider.modelId,
    } as const;
    result = await (observe?.(step, generate) ?? generate());
  } catch (error) {
    if (settings.abortSignal?.aborted) throw new CompactionAbortedError({ cause: error });
    const message = error instanceof Error ? error.message : String(error);
    return { failure: { reason: 'provider-error', message, cause: error } };
  }
  const failure = checkSummary(result, settings.requiredSections);
  return failure === undefined ? { text: result.text.trim() } : { failure };
}
