import { compactionMiddleware, compactionPrepareStep } from '@compaction/ai-sdk';
import type { Compactor, CompactorSettings } from '@compaction/core';
import { generateText, stepCountIs, wrapLanguageModel } from 'ai';
import type { AiSdkConversation } from './ai-sdk-conversation.js';
import { targetModel, targetProviderOptions, targetTools } from './ai-sdk-target.js';
import type { CapturedCall, LoopbackProvider } from './loopback-provider.js';

/** The two ways into the AI SDK: `prepareStep` on the call, or a middleware on the model. */
export type AiSdkIntegration = 'prepare-step' | 'middleware';

export const aiSdkIntegrations: readonly AiSdkIntegration[] = ['prepare-step', 'middleware'];

/** Compaction on one call: which integration, with which compactor settings. */
export interface CallCompaction {
  integration: AiSdkIntegration;
  settings: CompactorSettings;
}

/** What one `generateText` call sent, and what its compactor did. */
export interface GenerateTextCall extends CapturedCall {
  /** Compactions that produced a result. */
  compactions: number;
  /** Errors the compactor caught and did not throw (a failed compaction leaves the history unchanged). */
  compactionErrors: unknown[];
}

// The providers warn about parts they leave out (file ids in tool output, another provider's reasoning); the
// generated conversations hold such parts on purpose, and the requests are checked, so the warnings are noise.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

// Media URLs go to the provider as they are: nothing is downloaded from outside.
const keepUrls = async (requests: readonly unknown[]) => requests.map(() => null);

/**
 * Runs `generateText` on the conversation through the real provider of its target, pointed at the loopback
 * server, for two steps (the server asks for one tool call first), with or without compaction.
 */
export async function generateTextCall(
  provider: LoopbackProvider,
  conversation: AiSdkConversation,
  compaction?: CallCompaction,
): Promise<GenerateTextCall> {
  const { target } = conversation;
  const model = targetModel(target, provider.url);
  let compactor: Compactor | undefined;
  let prepareStep: ReturnType<typeof compactionPrepareStep> | undefined;
  let wrapped = model;
  if (compaction?.integration === 'prepare-step') {
    prepareStep = compactionPrepareStep(compaction.settings);
    compactor = prepareStep.compactor;
  } else if (compaction?.integration === 'middleware') {
    const middleware = compactionMiddleware(compaction.settings);
    compactor = middleware.compactor;
    wrapped = wrapLanguageModel({ model, middleware });
  }
  let compactions = 0;
  const compactionErrors: unknown[] = [];
  compactor?.on('end', () => compactions++);
  compactor?.on('error', (event) => compactionErrors.push(event.error));

  const providerOptions = targetProviderOptions(target, conversation);
  const captured = await provider.capture(target, () =>
    generateText({
      model: wrapped,
      messages: conversation.messages,
      ...(conversation.system === undefined ? {} : { system: conversation.system }),
      tools: targetTools(target, provider.url, conversation),
      ...(providerOptions === undefined ? {} : { providerOptions }),
      ...(prepareStep === undefined ? {} : { prepareStep }),
      allowSystemInMessages: true,
      maxRetries: 0,
      stopWhen: stepCountIs(2),
      experimental_download: keepUrls,
    }),
  );
  return { ...captured, compactions, compactionErrors };
}
