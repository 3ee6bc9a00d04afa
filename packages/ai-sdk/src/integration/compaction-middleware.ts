import { callWithCompaction } from '@compaction/agent-loop';
import type { Compactor, Message } from '@compaction/core';
import type { LanguageModelMiddleware, Tool } from 'ai';
import type {
  LanguageModelCallOptions,
  LanguageModelPromptMessage,
  WrappedLanguageModel,
} from '../ai-sdk-types.js';
import { decodeOne } from '../convert/convert-messages.js';
import { encodeMessage } from '../convert/encode-message.js';
import { isRecord } from '../convert/metadata-slot.js';
import { callHistory } from './compaction-call-history.js';
import type { CompactRequest } from './compaction-compact-tool.js';
import { writeNoteWithModel } from './compaction-note.js';
import { type CompactionIntegrationSettings, resolveCompactionSettings } from './compaction-settings.js';
import { ConversationTracker, type ConversationView } from './conversation-tracker.js';
import { parseContextOverflow } from './parse-context-overflow.js';
import { signedReasoningFirst } from './signed-reasoning-first.js';

/** A language-model middleware that compacts, and the compactor it uses (to subscribe to its events). */
export type CompactionMiddleware = LanguageModelMiddleware & {
  readonly compactor: Compactor;
  /** With `compactTool: true`: the `compact` tool to give the model, under the key `compact`. */
  readonly compactTool?: Tool<CompactRequest, string>;
};

/** What one call sent, so usage and an overflow can be related to it. */
interface Call {
  view: ConversationView;
  sent: Message[];
}

/**
 * Creates a language-model middleware that keeps every call of the wrapped model within the budget, whatever
 * calls it (`generateText`, `streamText`, agents, `generateObject`...):
 *
 * - before each call (`transformParams`) it counts the prompt, anchored on the input tokens the previous call
 *   reported, and compacts when the trigger fires; a compaction is re-applied to later calls of the same
 *   conversation, which the AI SDK sends whole each time;
 * - the call itself is wrapped by `callWithCompaction` of `@compaction/agent-loop`, the one overflow policy:
 *   when the model refuses it as too long for its context window (a context-overflow error, recognised by
 *   {@link parseContextOverflow} or the `provider` of the settings), it compacts with the `overflow` trigger,
 *   sized by the figures the refusal states, and retries, at most `maximumOverflowRetries` times; a refusal
 *   of the last retry throws `OverflowRetriesExhaustedError`. For streams this covers errors raised before
 *   streaming starts;
 * - a call that continues context the provider stores (OpenAI Responses `previousResponseId` or
 *   `conversation` in its provider options) goes through untouched, overflow included: its history is
 *   upstream, and with `conversation` every item it sends is stored, so none may be left out.
 *
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-4.1'), middleware: compactionMiddleware({ strategy, budget }) });
 * ```
 */
export function compactionMiddleware(settings: CompactionIntegrationSettings): CompactionMiddleware {
  const context = resolveCompactionSettings(settings);
  const { compactor, sessionId, conversationId, provider, compactRequests } = context;
  const tracker = new ConversationTracker<LanguageModelPromptMessage>((message, index) =>
    decodeOne(message, index, 'prompt'),
  );
  const calls = new WeakMap<object, Call>();
  const encode = (messages: readonly Message[]): LanguageModelPromptMessage[] =>
    messages.map((message) =>
      tracker.encode(message, (core) => encodeMessage(core, 'prompt') as LanguageModelPromptMessage),
    );

  /** Sends a call through the one call wrapper: its first attempt as the AI SDK made it, retries compacted. */
  const wrapped = <Result>(
    call: Call,
    params: LanguageModelCallOptions,
    model: WrappedLanguageModel,
    first: () => PromiseLike<Result>,
    again: (params: LanguageModelCallOptions) => PromiseLike<Result>,
    inputTokens: (result: Result) => number | undefined | Promise<number | undefined>,
  ) =>
    callWithCompaction({
      compactor,
      sessionId,
      messages: call.sent,
      prepare: false,
      provider: model.provider,
      parseContextOverflow: (error) => parseContextOverflow(error) ?? provider?.parseContextOverflow?.(error),
      send: async (messages, attempt) =>
        attempt === 1 ? first() : again({ ...params, prompt: encode(messages) }),
      inputTokens,
      onCompaction: (result) => {
        // Compaction can leave assistant messages side by side, which Anthropic merges into one turn.
        const sent = signedReasoningFirst(result.messages);
        tracker.commit(call.view, sent);
        return sent;
      },
    });

  return {
    specificationVersion: 'v3',
    compactor,
    ...(compactRequests === undefined ? {} : { compactTool: compactRequests.tool }),

    async transformParams({ params, model }) {
      // The history of such a call is stored upstream: there is nothing here to count or shorten.
      if (continuesStoredContext(params)) return params;
      const view = tracker.view(params.prompt, conversationOf(params) ?? conversationId);
      const compacted = await callHistory(context, view.messages, params.abortSignal, (signal, notes) =>
        writeNoteWithModel(model, params, encode(view.messages), notes, signal),
      );
      if (compacted !== undefined) tracker.commit(view, compacted);
      const sent = compacted ?? view.messages;
      const transformed =
        compacted !== undefined || view.replaced ? { ...params, prompt: encode(sent) } : params;
      calls.set(transformed, { view, sent });
      return transformed;
    },

    async wrapGenerate({ doGenerate, params, model }) {
      const call = calls.get(params);
      if (call === undefined) return doGenerate();
      const usage = (result: Awaited<ReturnType<typeof doGenerate>>) => result.usage?.inputTokens.total;
      return (await wrapped(call, params, model, doGenerate, (retry) => model.doGenerate(retry), usage))
        .result;
    },

    async wrapStream({ doStream, params, model }) {
      const call = calls.get(params);
      if (call === undefined) return doStream();
      let reported: (tokens: number | undefined) => void = () => undefined;
      const usage = new Promise<number | undefined>((resolve) => {
        reported = resolve;
      });
      const { result } = await wrapped(
        call,
        params,
        model,
        doStream,
        (retry) => model.doStream(retry),
        () => usage,
      );
      return {
        ...result,
        stream: result.stream.pipeThrough(
          new TransformStream({
            transform(part, controller) {
              if (part.type === 'finish') reported(part.usage.inputTokens.total);
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
