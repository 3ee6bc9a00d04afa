import type Anthropic from '@anthropic-ai/sdk';
import type { Message, TextPart } from '@compaction/core';
import { callSdkMethod } from '@compaction/provider-utils';
import { blockToPart } from './anthropic-content-blocks.js';
import { toAnthropicCompactionError } from './anthropic-error.js';
import type { AnthropicContentBlock } from './anthropic-request.js';
import { toAnthropicRequest } from './to-anthropic-request.js';

/** The beta flag of on-demand compaction (`compaction: { type: 'summarize' }`). */
export const onDemandCompactionBeta = 'compact-2026-09-04';

/**
 * Models with on-demand compaction, by id prefix (Docs: Compaction on demand, `supportedModels`: Claude Opus
 * 4.6, 4.7 and 4.8, Sonnet 4.6, and the Claude 5 families).
 */
export const onDemandCompactionModels: readonly string[] = [
  'claude-opus-4-6',
  'claude-sonnet-4-6',
  'claude-opus-4-7',
  'claude-opus-4-8',
  'claude-opus-5',
  'claude-sonnet-5',
  'claude-haiku-5',
  'claude-mythos',
  'claude-fable',
];

/** The part of a client {@link anthropicNativeCompaction} calls: the beta Messages API. */
export interface AnthropicBetaMessagesClient {
  beta: { messages: { create(body: never, options?: never): PromiseLike<unknown> } };
}

/**
 * A client whose `beta.messages.create` builds (or takes) the real client on first use: the provider's client
 * is lazy, and a client without the beta API fails the call with an error saying so.
 */
export function lazyBetaMessages(getClient: () => Promise<unknown>): AnthropicBetaMessagesClient {
  const messages = {
    async create(body: never, options?: never): Promise<unknown> {
      const client = (await getClient()) as Partial<AnthropicBetaMessagesClient>;
      const beta = client.beta?.messages;
      if (beta === undefined)
        throw new Error('the client has no beta.messages.create (an Anthropic instance has it)');
      return beta.create(body, options);
    },
  };
  return { beta: { messages } };
}

/** Settings of {@link anthropicNativeCompaction}. */
export interface AnthropicNativeCompactionSettings {
  /** The client the compaction requests go through: an `Anthropic` instance (its beta Messages API). */
  client: AnthropicBetaMessagesClient;
  /** The model that writes the summary: the conversation's own, so its tools and thinking stay valid. */
  model: string;
  /** Sent with the compaction request, as with the conversation's requests: the same tools keep it valid. */
  tools?: Anthropic.Beta.BetaToolUnion[];
  /** Output room for the summary. Default 8192. */
  maxTokens?: number;
  /** Whether the model has on-demand compaction. Default: its id starts with one of {@link onDemandCompactionModels}. */
  supported?: (model: string) => boolean;
}

/**
 * Anthropic's on-demand compaction as the `native` strategy's `NativeCompaction`: the span is sent with
 * `compaction: { type: 'summarize' }` (beta `compact-2026-09-04`); the API summarizes it and answers with a
 * single `compaction` block (`stop_reason: 'compaction'`), which later requests send first in `messages` in
 * place of the messages it summarizes, unchanged. The block is kept verbatim in a user message: core's rules
 * keep a conversation that started with a user turn starting with one, and the API's placement rule is that the
 * block opens the conversation and is not in a system message.
 */
export function anthropicNativeCompaction(settings: AnthropicNativeCompactionSettings) {
  const supported =
    settings.supported ??
    ((model: string) => onDemandCompactionModels.some((prefix) => model.startsWith(prefix)));
  return {
    provider: 'anthropic',
    supported: () => supported(settings.model),
    async compact(request: {
      messages: Message[];
      instructions?: string;
      abortSignal?: AbortSignal;
    }): Promise<Message[]> {
      const body = {
        model: settings.model,
        max_tokens: settings.maxTokens ?? 8192,
        ...toAnthropicRequest(request.messages),
        ...(settings.tools === undefined ? {} : { tools: settings.tools }),
        compaction: {
          type: 'summarize' as const,
          ...(request.instructions === undefined ? {} : { instructions: request.instructions }),
        },
        betas: [onDemandCompactionBeta],
      };
      const { messages } = settings.client.beta;
      let response: Anthropic.Beta.BetaMessage;
      try {
        response = await callSdkMethod<typeof body, Anthropic.Beta.BetaMessage>(
          messages,
          messages.create,
          body,
          request.abortSignal,
        );
      } catch (error) {
        throw toAnthropicCompactionError(error, request.abortSignal);
      }
      const block = response.content.find((candidate) => candidate.type === 'compaction');
      if (block === undefined || block.content === null) {
        throw new Error(`the compaction request returned no summary (stop_reason ${response.stop_reason})`);
      }
      // A block core has no part for comes back as a text part holding it verbatim.
      const part = blockToPart(block as unknown as AnthropicContentBlock) as TextPart;
      return [{ role: 'user', content: [part] }];
    },
  };
}
