import { callWithCompaction } from '@compaction/agent-loop';
import type { Compactor, Message } from '@compaction/core';
import { parseOpenAIContextOverflow, toOpenAICompactionError } from '@compaction/provider-openai';
import type { AgentInputItem, Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents';

/** What the model wrapper needs of a session: a `CompactionSession` is one. */
export interface CompactingSession {
  /** The compactor every call goes through. */
  readonly compactor: Compactor;
  /** The session compactions are recorded under. */
  readonly sessionId: string;
  /** The items to send for a request's items, with an earlier compaction applied, and their core messages. */
  current(items: readonly AgentInputItem[]): { items: AgentInputItem[]; messages: Message[] };
  /** Takes a compaction of `covered` and returns the items to send. */
  adopt(covered: readonly AgentInputItem[], messages: readonly Message[]): AgentInputItem[];
}

/**
 * A model that compacts each request's items with the session's compactor before the wrapped model sends
 * them, records the input tokens each response reports (so the next count is anchored on them), and, when the
 * API refuses a request as too long, compacts with the `overflow` trigger and sends it again (the one overflow
 * policy of `@compaction/agent-loop`: at most twice, the cut sized by the figures of the refusal).
 *
 * A request that continues context the API stores (`previousResponseId` or `conversationId`) is sent as it
 * is: its history is upstream, where compaction cannot count or shorten it.
 */
export function compactingModel(model: Model, session: CompactingSession): Model {
  const wrapped: Model = {
    async getResponse(request) {
      if (!compactable(request)) return model.getResponse(request);
      return callCompacted<ModelResponse>(session, request, {
        send: (input) => model.getResponse(input),
        inputTokens: (response) => positive(response.usage.inputTokens),
      });
    },
    async *getStreamedResponse(request): AsyncIterable<StreamEvent> {
      if (!compactable(request)) {
        yield* model.getStreamedResponse(request);
        return;
      }
      // The first event is awaited inside the call, so a refusal (an HTTP error before any output) is
      // recognised and retried; the usage comes with the last event.
      let reportUsage: (tokens: number | undefined) => void = () => undefined;
      const stream = await callCompacted(session, request, {
        send: async (input) => {
          const iterator = model.getStreamedResponse(input)[Symbol.asyncIterator]();
          return { iterator, first: await iterator.next() };
        },
        inputTokens: () =>
          new Promise<number | undefined>((resolve) => {
            reportUsage = resolve;
          }),
      });
      try {
        for (let next = stream.first; next.done !== true; next = await stream.iterator.next()) {
          if (next.value.type === 'response_done')
            reportUsage(positive(next.value.response.usage.inputTokens));
          yield next.value;
        }
      } finally {
        reportUsage(undefined);
      }
    },
  };
  if (model.getRetryAdvice !== undefined) {
    wrapped.getRetryAdvice = (advice) => model.getRetryAdvice!(advice);
  }
  return wrapped;
}

/** How one call is sent and what it reports. */
interface CallParts<Result> {
  send: (request: ModelRequest) => Promise<Result>;
  inputTokens: (result: Result) => number | undefined | Promise<number | undefined>;
}

async function callCompacted<Result>(
  session: CompactingSession,
  request: ModelRequest,
  parts: CallParts<Result>,
): Promise<Result> {
  const covered = request.input as AgentInputItem[];
  const current = session.current(covered);
  let items = current.items;
  const call = await callWithCompaction({
    compactor: session.compactor,
    sessionId: session.sessionId,
    messages: current.messages,
    // Each compaction (before the first request, or after a refusal) gives the items the next request sends.
    onCompaction: (result) => {
      items = session.adopt(covered, result.messages);
      return undefined;
    },
    send: () => parts.send({ ...request, input: items }),
    inputTokens: parts.inputTokens,
    parseContextOverflow: parseOpenAIContextOverflow,
    toCompactionError: toOpenAICompactionError,
    provider: 'openai',
  });
  return call.result;
}

function compactable(request: ModelRequest): request is ModelRequest & { input: AgentInputItem[] } {
  const stored = request.previousResponseId !== undefined || request.conversationId !== undefined;
  return typeof request.input !== 'string' && !stored;
}

/** Usage of 0 means the model reported none. */
function positive(tokens: number): number | undefined {
  return tokens > 0 ? tokens : undefined;
}
