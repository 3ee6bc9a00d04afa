import type { Message } from '@compaction/core';
import { callSdkMethod, type ProviderNativeCompaction } from '@compaction/provider-utils';
import { fromOpenAIResponsesInput } from './from-openai-responses-input.js';
import { toOpenAICompactionError } from './openai-error.js';
import { toOpenAIResponsesInput } from './to-openai-responses-input.js';

/** The part of a client {@link openaiResponsesNativeCompaction} calls: the standalone `responses.compact`. */
export interface OpenAIResponsesCompactClient {
  responses: { compact(body: never, options?: never): PromiseLike<unknown> };
}

/**
 * A client whose `responses.compact` builds (or takes) the real client on first use: the provider's client is
 * lazy, and a client without the method fails the call with an error saying so.
 */
export function lazyResponsesCompact(getClient: () => Promise<unknown>): OpenAIResponsesCompactClient {
  const responses = {
    async compact(body: never, options?: never): Promise<unknown> {
      const client = (await getClient()) as Partial<OpenAIResponsesCompactClient>;
      if (typeof client.responses?.compact !== 'function') {
        throw new Error(
          'the client has no responses.compact (recent openai releases have it; 6.49.0 is tested)',
        );
      }
      return client.responses.compact(body, options);
    },
  };
  return { responses };
}

/** Settings of {@link openaiResponsesNativeCompaction}. */
export interface OpenAIResponsesNativeCompactionSettings {
  /** The client the compaction requests go through: an `OpenAI` instance of a release that has `responses.compact` (6.49.0 is tested). */
  client: OpenAIResponsesCompactClient;
  /** The model that compacts: the conversation's own. */
  model: string;
  /** Sent as `instructions`, as the conversation sends them: the system prompt the window is read with. */
  instructions?: string;
  /** Role of system messages: `system` (default) or `developer`. */
  systemRole?: 'system' | 'developer';
  /**
   * Whether the model has `responses.compact`. Default: GPT-5 models and Codex models (ids starting with
   * `gpt-5`, or holding `codex`), the families the compaction guide is written for; give your own for others.
   */
  supported?: (model: string) => boolean;
}

/** The default of {@link OpenAIResponsesNativeCompactionSettings.supported}. */
export function supportsResponsesCompact(model: string): boolean {
  return model.startsWith('gpt-5') || model.includes('codex');
}

/** The part of a `responses.compact` answer read here (SDK `CompactedResponse`). */
interface CompactedResponse {
  object?: string;
  output: Array<{ type?: string; role?: string }>;
}

/**
 * OpenAI's standalone compaction as the `native` strategy's `NativeCompaction`: the span is sent to
 * `responses.compact` as a Responses input (system messages first, as the conversation sends them), and the
 * window it returns ("a list of all user messages, followed by a single compaction item", SDK
 * `CompactedResponse.output`) takes the span's place, every item kept verbatim: the guide asks that the window
 * be passed on unpruned, and the conversation keeps it whole. The endpoint takes no summarization instructions,
 * so a manual compaction's instructions are not sent. A window without a compaction item, or holding a system or
 * developer message, is an error (the strategy then falls back).
 */
export function openaiResponsesNativeCompaction(
  settings: OpenAIResponsesNativeCompactionSettings,
): ProviderNativeCompaction {
  const supported = settings.supported ?? supportsResponsesCompact;
  const systemRole = settings.systemRole === undefined ? {} : { systemRole: settings.systemRole };
  return {
    provider: 'openai',
    supported: () => supported(settings.model),
    async compact(request): Promise<Message[]> {
      const body = {
        model: settings.model,
        input: toOpenAIResponsesInput(request.messages, systemRole),
        ...(settings.instructions === undefined ? {} : { instructions: settings.instructions }),
      };
      const { responses } = settings.client;
      let response: CompactedResponse;
      try {
        response = await callSdkMethod<typeof body, CompactedResponse>(
          responses,
          responses.compact,
          body,
          request.abortSignal,
        );
      } catch (error) {
        throw toOpenAICompactionError(error, request.abortSignal);
      }
      const output = Array.isArray(response.output) ? response.output : [];
      if (!output.some((item) => item.type === 'compaction')) {
        throw new Error('responses.compact returned no compaction item');
      }
      if (output.some((item) => item.role === 'system' || item.role === 'developer')) {
        throw new Error(
          'responses.compact returned a system or developer message, which the span cannot hold',
        );
      }
      return fromOpenAIResponsesInput(output as never);
    },
  };
}
