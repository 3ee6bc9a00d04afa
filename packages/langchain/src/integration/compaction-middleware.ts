import { callWithCompaction } from '@compaction/agent-loop';
import type { Compactor, Message } from '@compaction/core';
import { type AIMessage, type BaseMessage, RemoveMessage } from '@langchain/core/messages';
import { createMiddleware } from 'langchain';
import { compactionRecallTool } from './compaction-recall-tool.js';
import { type LangChainCompactionSettings, resolveCompaction, sessionOf } from './compaction-settings.js';
import { MessageMemo } from './message-memo.js';
import { parseContextOverflow } from './parse-context-overflow.js';

/** LangGraph's id of a `RemoveMessage` that clears the whole list (`REMOVE_ALL_MESSAGES`). */
const removeAllMessages = '__remove_all__';

/** A compaction to write into the agent's state: the messages it stands for, and what stands in for them. */
interface Replacement {
  covered: readonly BaseMessage[];
  messages: BaseMessage[];
}

/** The middleware, and the compactor it uses (made on first use when strategies are given by name). */
export type CompactionMiddleware = ReturnType<typeof createMiddleware> & {
  readonly compactor: () => Promise<Compactor>;
};

/**
 * Creates a LangChain.js v1 agent middleware that keeps every model call of a `createAgent` agent within the
 * budget:
 *
 * - around each model call (`wrapModelCall`) it counts the system prompt and the messages, anchored on the
 *   input tokens the previous call reported, and compacts with the strategy when the trigger fires; tool calls
 *   stay with their results and the task (the opening messages) and the newest request are kept;
 * - the call goes through `callWithCompaction` of `@compaction/agent-loop`, the one overflow policy: when the
 *   model refuses the request as too long (LangChain's `ContextOverflowError`, which `ChatAnthropic` and
 *   `ChatOpenAI` raise), it compacts with the `overflow` trigger, sized by the figures the refusal states, and
 *   retries, at most `maximumOverflowRetries` times;
 * - after the call (`afterModel`) the compacted history replaces the agent's messages in its state, as
 *   LangChain's own summarization middleware does, so later calls and later runs of the thread continue from it
 *   (what was removed is in the store, with `archive: true`). When an earlier middleware changed the request's
 *   messages, the compaction applies to that call only;
 * - with `archive: true` and a `store`, it gives the agent the `recall` tool over the archive.
 *
 * ```ts
 * const agent = createAgent({ model, tools, middleware: [compactionMiddleware({ strategy: 'tool-result-truncation', budget: { contextWindow: 200_000 } })] });
 * ```
 */
export function compactionMiddleware(settings: LangChainCompactionSettings): CompactionMiddleware {
  const resolved = resolveCompaction(settings);
  const memo = new MessageMemo();
  const pending = new Map<string, Replacement>();
  const recall =
    resolved.recall === undefined
      ? undefined
      : compactionRecallTool({
          ...resolved.recall,
          ...(resolved.sessionId === undefined ? {} : { sessionId: resolved.sessionId }),
        });

  const middleware = createMiddleware({
    name: 'CompactionMiddleware',
    ...(recall === undefined ? {} : { tools: [recall] }),

    wrapModelCall: async (request, handler) => {
      const compactor = await resolved.compactor();
      const sessionId = sessionOf(resolved.sessionId, request.runtime.configurable);
      // A replacement left by a call that failed before its answer was written is not this call's.
      pending.delete(sessionId);
      const system = request.systemMessage;
      // The agent sends the system prompt before the messages unless it is empty: it counts, and stays.
      const hasSystem = system !== undefined && system.text !== '';
      const messages = memo.decode(hasSystem ? [system, ...request.messages] : request.messages);
      const requestOf = (sent: readonly Message[]) => {
        const encoded = memo.encode(sent);
        return hasSystem && encoded[0] === system
          ? { ...request, messages: encoded.slice(1) }
          : { ...request, messages: encoded };
      };
      const call = await callWithCompaction({
        compactor,
        sessionId,
        messages,
        provider: providerName(request.model),
        parseContextOverflow: (error) =>
          parseContextOverflow(error) ?? resolved.provider?.parseContextOverflow?.(error),
        send: async (sent) => handler(sent === messages ? request : requestOf(sent)),
        inputTokens: (response: AIMessage) => response.usage_metadata?.input_tokens,
      });
      if (call.compactions.length > 0 && request.messages === request.state.messages) {
        pending.set(sessionId, {
          covered: request.messages,
          messages: requestOf(call.messages).messages,
        });
      }
      return call.result;
    },

    afterModel: (state, runtime) => {
      const sessionId = sessionOf(resolved.sessionId, runtime.configurable);
      const replacement = pending.get(sessionId);
      if (replacement === undefined) return undefined;
      pending.delete(sessionId);
      const { covered } = replacement;
      const messages = state.messages;
      // Written only over the very messages it was made from, the model's answer and anything newer kept after it.
      const same = (message: BaseMessage, index: number) =>
        messages[index] === message || (message.id !== undefined && messages[index]?.id === message.id);
      if (messages.length < covered.length || !covered.every(same)) return undefined;
      return {
        messages: [
          new RemoveMessage({ id: removeAllMessages }),
          ...replacement.messages,
          ...messages.slice(covered.length),
        ],
      };
    },
  });
  return Object.assign(middleware, { compactor: resolved.compactor });
}

/** The provider a chat model calls, for errors (`anthropic`, `openai`...). */
function providerName(model: unknown): string {
  const type = (model as { _llmType?: () => unknown })._llmType;
  if (typeof type !== 'function') return 'langchain';
  const name = type.call(model);
  return typeof name === 'string' ? name : 'langchain';
}
