import { type Compactor, ContextOverflowError, type Message } from '@compaction/core';
import type { LanguageModelMiddleware } from 'ai';
import type {
  LanguageModelCallOptions,
  LanguageModelPromptMessage,
  WrappedLanguageModel,
} from '../ai-sdk-types.js';
import { decodeOne } from '../convert/convert-messages.js';
import { encodeMessage } from '../convert/encode-message.js';
import { isRecord } from '../convert/metadata-slot.js';
import { type CompactionIntegrationSettings, resolveCompactionSettings } from './compaction-settings.js';
import { ConversationTracker, type ConversationView } from './conversation-tracker.js';
import { parseContextOverflow } from './parse-context-overflow.js';
import { signedReasoningFirst } from './signed-reasoning-first.js';

/** A language-model middleware that compacts, and the compactor it uses (to subscribe to its events). */
export type CompactionMiddleware = LanguageModelMiddleware & { readonly compactor: Compactor };

/** What one call sent, so usage and an overflow can be related to it. */
interface Call {
  view: ConversationView;
  sent: Message[];
}

type Usage = { inputTokens: { total: number | undefined } };

/**
 * Creates a language-model middleware that keeps every call of the wrapped model within the budget, whatever
 * calls it (`generateText`, `streamText`, agents, `generateObject`...):
 *
 * - before each call (`transformParams`) it counts the prompt, anchored on the input tokens the previous call
 *   reported, and compacts when the trigger fires; a compaction is re-applied to later calls of the same
 *   conversation, which the AI SDK sends whole each time;
 * - when the model refuses a call as too long for its context window (a context-overflow error, recognised by
 *   {@link parseContextOverflow} or the compactor's provider), it compacts with the `overflow` trigger and
 *   retries once; a second refusal is thrown. For streams this covers errors raised before streaming starts;
 * - a call that continues context the provider stores (OpenAI Responses `previousResponseId` or
 *   `conversation` in its provider options) goes through untouched, overflow included: its history is
 *   upstream, and with `conversation` every item it sends is stored, so none may be left out.
 *
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-4.1'), middleware: compactionMiddleware({ strategy, budget }) });
 * ```
 */
export function compactionMiddleware(settings: CompactionIntegrationSettings): CompactionMiddleware {
  const { compactor, sessionId, conversationId } = resolveCompactionSettings(settings);
  const options = sessionId === undefined ? {} : { sessionId };
  const tracker = new ConversationTracker<LanguageModelPromptMessage>((message, index) =>
    decodeOne(message, index, 'prompt'),
  );
  const calls = new WeakMap<object, Call>();

  const encode = (messages: readonly Message[]): LanguageModelPromptMessage[] =>
    messages.map((message) =>
      tracker.encode(message, (core) => encodeMessage(core, 'prompt') as LanguageModelPromptMessage),
    );

  const recordUsage = (sent: readonly Message[], usage: Usage | undefined) => {
    const inputTokens = usage?.inputTokens.total;
    if (inputTokens !== undefined) compactor.recordUsage({ messages: sent, inputTokens });
  };

  /** Compacts after an overflow and returns the parameters of the one retry; rethrows any other error. */
  const recover = async (
    error: unknown,
    call: Call | undefined,
    params: LanguageModelCallOptions,
    model: WrappedLanguageModel,
  ): Promise<{ params: LanguageModelCallOptions; sent: Message[] }> => {
    if (call === undefined) throw error;
    const overflow = parseContextOverflow(error);
    const reason =
      overflow === undefined
        ? error
        : new ContextOverflowError({ provider: model.provider, ...overflow, cause: error });
    let result: Awaited<ReturnType<Compactor['recover']>>;
    try {
      result = await compactor.recover(call.sent, reason, options);
    } catch (failure) {
      // Not an overflow: the model's own error, unchanged.
      if (failure === reason) throw error;
      throw failure;
    }
    const sent = signedReasoningFirst(result.messages);
    tracker.commit(call.view, sent);
    return { params: { ...params, prompt: encode(sent) }, sent };
  };

  return {
    specificationVersion: 'v3',
    compactor,

    async transformParams({ params }) {
      // The history of such a call is stored upstream: there is nothing here to count or shorten.
      if (continuesStoredContext(params)) return params;
      const view = tracker.view(params.prompt, conversationOf(params) ?? conversationId);
      const result = await compactor.prepare(view.messages, options);
      // Compaction can leave assistant messages side by side, which Anthropic merges into one turn.
      const compacted = result.compacted ? signedReasoningFirst(result.messages) : undefined;
      if (compacted !== undefined) tracker.commit(view, compacted);
      const sent = compacted ?? view.messages;
      const transformed =
        compacted !== undefined || view.replaced ? { ...params, prompt: encode(sent) } : params;
      calls.set(transformed, { view, sent });
      return transformed;
    },

    async wrapGenerate({ doGenerate, params, model }) {
      const call = calls.get(params);
      try {
        const result = await doGenerate();
        if (call !== undefined) recordUsage(call.sent, result.usage);
        return result;
      } catch (error) {
        const retry = await recover(error, call, params, model);
        const result = await model.doGenerate(retry.params);
        recordUsage(retry.sent, result.usage);
        return result;
      }
    },

    async wrapStream({ doStream, params, model }) {
      const call = calls.get(params);
      let sent = call?.sent;
      let response: Awaited<ReturnType<typeof doStream>>;
      try {
        response = await doStream();
      } catch (error) {
        const retry = await recover(error, call, params, model);
        sent = retry.sent;
        response = await model.doStream(retry.params);
      }
      if (sent === undefined) return response;
      const messages = sent;
      return {
        ...response,
        stream: response.stream.pipeThrough(
          new TransformStream({
            transform(part, controller) {
              if (part.type === 'finish') recordUsage(messages, part.usage);
              controller.enqueue(part);
            },
          }),
        ),
      };
    },
  };
}

/** The per-call conversation id a caller passes as `providerOptions: { compaction: { conversationId } }`. */
function conversationOf(params: LanguageModelCallOptions): string | undefined {
  const id = params.providerOptions?.compaction?.conversationId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Whether a call continues context the provider stores: a `previousResponseId` or `conversation` in the
 * options of any provider (the OpenAI Responses options, under whatever name the provider reads them).
 */
function continuesStoredContext(params: LanguageModelCallOptions): boolean {
  return Object.entries(params.providerOptions ?? {}).some(
    ([name, options]) =>
      name !== 'compaction' &&
      isRecord(options) &&
      (options.previousResponseId != null || options.conversation != null),
  );
}
