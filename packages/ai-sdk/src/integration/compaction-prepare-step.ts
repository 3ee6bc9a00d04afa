import type { Compactor, Message } from '@compaction/core';
import type { ModelMessage, Tool } from 'ai';
import { decodeOne } from '../convert/convert-messages.js';
import { encodeMessage } from '../convert/encode-message.js';
import { type CompactRequest, compactOrPrepare } from './compaction-compact-tool.js';
import { type CompactionIntegrationSettings, resolveCompactionSettings } from './compaction-settings.js';
import { ConversationTracker } from './conversation-tracker.js';
import { signedReasoningFirst } from './signed-reasoning-first.js';

/** What a `prepareStep` function receives that compaction uses (a subset of the AI SDK's options). */
export interface PrepareStepInput {
  /** The messages the AI SDK is about to send: the full history, never changed by compaction. */
  messages: ModelMessage[];
  /** The steps run so far; the last one's `usage.inputTokens` anchors the token count. */
  steps: ReadonlyArray<{ usage: { inputTokens: number | undefined } }>;
}

/** A `prepareStep` function that compacts, and the compactor it uses (to subscribe to its events). */
export interface CompactionPrepareStep {
  (input: PrepareStepInput): Promise<{ messages?: ModelMessage[] }>;
  readonly compactor: Compactor;
  /** With `compactTool: true`: the `compact` tool to give the model, under the key `compact`. */
  readonly compactTool?: Tool<CompactRequest, string>;
}

/**
 * Creates a `prepareStep` function for `generateText`, `streamText` and agents that keeps the conversation
 * within the budget: before each step it counts the history (anchored on the input tokens the previous step
 * reported) and compacts when the trigger fires.
 *
 * The AI SDK gives every step the full history again and uses returned `messages` for that step only, so once
 * a compaction has happened the compacted history (followed by the messages added since) is returned on each
 * later step; until then nothing is returned and the step runs unchanged. The caller's messages are never
 * changed. Errors of a compaction that cannot get the history under the limit are thrown (typed).
 *
 * ```ts
 * const result = await generateText({ model, tools, messages, prepareStep: compactionPrepareStep({ strategy, budget }) });
 * ```
 */
export function compactionPrepareStep(settings: CompactionIntegrationSettings): CompactionPrepareStep {
  const { compactor, sessionId, conversationId, compactRequests } = resolveCompactionSettings(settings);
  const tracker = new ConversationTracker<ModelMessage>((message, index) =>
    decodeOne(message, index, 'model'),
  );
  const sentBy = new WeakMap<object, Message[]>();
  const options = sessionId === undefined ? {} : { sessionId };

  const prepareStep = async ({
    messages,
    steps,
  }: PrepareStepInput): Promise<{ messages?: ModelMessage[] }> => {
    const view = tracker.view(messages, conversationId);
    const previous = sentBy.get(view.conversation);
    const inputTokens = steps.at(-1)?.usage.inputTokens;
    if (previous !== undefined && inputTokens !== undefined) {
      compactor.recordUsage({ messages: previous, inputTokens });
    }
    // A compaction the model asked for with the compact tool runs first, forced.
    const requested = compactRequests?.take(view.messages);
    const result = await compactOrPrepare(compactor, view.messages, options, requested);
    // Compaction can leave assistant messages side by side, which Anthropic merges into one turn.
    const compacted = result.compacted ? signedReasoningFirst(result.messages) : undefined;
    if (compacted !== undefined) tracker.commit(view, compacted);
    const sent = compacted ?? view.messages;
    sentBy.set(view.conversation, sent);
    if (compacted === undefined && !view.replaced) return {};
    return {
      messages: sent.map((message) =>
        tracker.encode(message, (core) => encodeMessage(core, 'model') as ModelMessage),
      ),
    };
  };
  return Object.assign(prepareStep, {
    compactor,
    ...(compactRequests === undefined ? {} : { compactTool: compactRequests.tool }),
  });
}
