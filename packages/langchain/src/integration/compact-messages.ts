import type { CompactionResult } from '@compaction/core';
import { type BaseMessage, type BaseMessageLike, coerceMessageLikeToMessage } from '@langchain/core/messages';
import { type LangChainCompactionSettings, resolveCompaction, sessionOf } from './compaction-settings.js';
import { MessageMemo } from './message-memo.js';

/** What {@link compactMessages} takes besides the compaction settings. */
export interface CompactMessagesOptions {
  /**
   * `auto` (the default) compacts only when the messages cross the budget's trigger, as before a model call;
   * `manual` compacts now, down to the target, as a `/compact` does.
   */
  trigger?: 'auto' | 'manual';
  /** Extra instructions for a manual compaction (a summarizing strategy reads them). */
  instructions?: string;
  /** Input tokens the provider reported for `messages` as they were last sent: the count anchors on them. */
  inputTokens?: number;
}

/**
 * A drop-in for `trimMessages` in a LangGraph graph: compacts LangChain messages with a strategy and returns
 * LangChain messages. Unlike a trim by token count, it never cuts between a tool call and its results, keeps
 * the system prompt, the task and the newest request, and merges with what earlier compactions left. Messages
 * it did not change are returned as the same objects; the input is not changed. Under the trigger (with the
 * `auto` trigger) the messages are returned as they are, in a new array.
 *
 * Pass the same `compactor` (or the middleware's) from call to call to keep its token counts anchored and its
 * session's compaction rounds in order; settings create a compactor for this call only.
 *
 * ```ts
 * const messages = await compactMessages(state.messages, { compactor, trigger: 'auto' });
 * ```
 */
export async function compactMessages(
  messages: readonly BaseMessageLike[],
  settings: LangChainCompactionSettings & CompactMessagesOptions,
): Promise<BaseMessage[]> {
  const resolved = resolveCompaction(settings);
  const compactor = await resolved.compactor();
  const memo = new MessageMemo();
  const items = messages.map((message) => coerceMessageLikeToMessage(message));
  const core = memo.decode(items);
  const sessionId = sessionOf(resolved.sessionId, undefined);
  if (settings.inputTokens !== undefined)
    compactor.recordUsage({ messages: core, inputTokens: settings.inputTokens });
  const result: CompactionResult =
    settings.trigger === 'manual'
      ? await compactor.compact(core, {
          sessionId,
          trigger: 'manual',
          ...(settings.instructions === undefined ? {} : { instructions: settings.instructions }),
        })
      : await compactor.prepare(core, { sessionId });
  return result.compacted ? memo.encode(result.messages) : items;
}
