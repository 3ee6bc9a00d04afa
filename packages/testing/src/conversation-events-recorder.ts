import type { ConversationLoopEvents } from '@compaction/agent-loop';

/** Anything that emits the events of a provider conversation (core's `ConversationLoop` and the adapters'). */
export interface ConversationEventSource<Body, Response> {
  on<Name extends keyof ConversationLoopEvents<Body, Response>>(
    name: Name,
    listener: (payload: ConversationLoopEvents<Body, Response>[Name]) => void,
  ): () => void;
}

/** Every event a conversation emitted, by kind, oldest first. */
export interface RecordedConversationEvents<Body, Response> {
  compactions: Array<ConversationLoopEvents<Body, Response>['compaction']>;
  overflows: Array<ConversationLoopEvents<Body, Response>['overflow']>;
  requests: Array<ConversationLoopEvents<Body, Response>['request']>;
  responses: Array<ConversationLoopEvents<Body, Response>['response']>;
}

/** Subscribes to every event of a provider conversation and collects them, for assertions. */
export function recordConversationEvents<Body, Response>(
  conversation: ConversationEventSource<Body, Response>,
): RecordedConversationEvents<Body, Response> {
  const recorded: RecordedConversationEvents<Body, Response> = {
    compactions: [],
    overflows: [],
    requests: [],
    responses: [],
  };
  conversation.on('compaction', (event) => recorded.compactions.push(event));
  conversation.on('overflow', (event) => recorded.overflows.push(event));
  conversation.on('request', (event) => recorded.requests.push(event));
  conversation.on('response', (event) => recorded.responses.push(event));
  return recorded;
}
