import {
  AgentConversation,
  type AgentConversationTypes,
  type ConversationAdapter,
  type ConversationSendOptions,
  type NoteBeforeCompaction,
  type NoteWire,
} from '@compaction/agent-loop';
import { InvalidMessagesError, type Message } from '@compaction/core';
import {
  type OpenAIConversationCompactionSettings,
  resolveOpenAIConversationCompactor,
} from './openai-conversation-settings.js';
import { toOpenAICompactionError } from './openai-error.js';
import { parseOpenAIContextOverflow } from './parse-openai-context-overflow.js';

/** Options of one `send`: fields that replace the request defaults for this call only, and a signal. */
export type OpenAISendOptions<Request> = ConversationSendOptions<Request>;

/** What both OpenAI conversations are built from. */
export interface OpenAIConversationBaseSettings extends OpenAIConversationCompactionSettings {
  /** The session compactions are recorded under. Default `default`. */
  sessionId?: string;
  /**
   * Offers the model a `compact` tool (optional `instructions`: what to keep, what phase ended): the
   * conversation answers the call and, before the next request, compacts with those instructions, even under
   * the target (a forced manual compaction). Default false.
   */
  compactTool?: boolean;
  /**
   * Before each automatic compaction, one extra request asks the model for a note of what it must keep (its
   * output limit set to `maximumTokens`, `tool_choice: 'none'`, aborted after `timeoutMs`); the note joins
   * the history as a pinned user message. `true` for the defaults; a failure is a `note` event. Off by default.
   */
  beforeCompaction?: boolean | NoteBeforeCompaction;
}

/** One model call of an OpenAI conversation: the response, the items it adds, the input tokens reported. */
export interface OpenAIExchange<Item, Response> {
  response: Response;
  /** The items the answer adds to the history. */
  items: Item[];
  /** Input tokens the API reported (cached ones included), when it reported usage. */
  inputTokens: number | undefined;
}

/** The SDK shapes of an OpenAI conversation; the APIs do not always report usage. */
export interface OpenAIConversationTypes extends AgentConversationTypes {
  inputTokens: number | undefined;
}

/** How OpenAI conversations recognise overflow refusals and map SDK failures. */
export const openaiConversationErrors = {
  parseContextOverflow: parseOpenAIContextOverflow,
  toCompactionError: (error: unknown): Error => toOpenAICompactionError(error),
};

/**
 * What the Chat Completions and Responses conversations share: the generic agent conversation with a
 * compactor for the request's model (its window, its output limit reserved, its tokenizer's profile).
 */
export abstract class OpenAIConversationBase<
  Types extends OpenAIConversationTypes,
> extends AgentConversation<Types> {
  protected constructor(
    settings: OpenAIConversationBaseSettings,
    model: string,
    maxOutputTokens: number | undefined,
    adapter: ConversationAdapter<Types>,
    note: NoteWire<Types>,
  ) {
    super({
      compactor: resolveOpenAIConversationCompactor(settings, model, maxOutputTokens),
      sessionId: settings.sessionId,
      // The adapter's members keep their closures (and their conversion state) in the copy.
      adapter: { ...adapter, note },
      ...(settings.compactTool === undefined ? {} : { compactTool: settings.compactTool }),
      ...(settings.beforeCompaction === undefined ? {} : { beforeCompaction: settings.beforeCompaction }),
    });
  }
}

/**
 * The message a user input stands for: text or content parts become a user message; a whole message is
 * taken as given when `addable` accepts it (user, system, developer), since answers come from the model and
 * tool results from `addToolResults`.
 */
export function addableMessageOf<Input extends object, Part>(
  input: string | Part[] | Input,
  addable: (message: Input) => boolean,
  results: 'tools' | 'functions',
): Input | { role: 'user'; content: string | Part[] } {
  if (typeof input === 'string' || Array.isArray(input)) return { role: 'user', content: input };
  if (addable(input)) return input;
  throw new InvalidMessagesError({
    issues: [
      {
        index: -1,
        path: 'role',
        message: `only user, system and developer messages can be added; use addToolResults for ${results}`,
      },
    ],
  });
}

/** How one OpenAI API differs in the members {@link openaiAdapterCommon} builds. */
export interface OpenAIAdapterApi<Types extends OpenAIConversationTypes> {
  /** The body field that holds the conversation. */
  field: 'messages' | 'input';
  /** Converts core messages to the API's shape. */
  toContext(messages: Message[], options: { systemRole?: 'system' | 'developer' }): Types['context'];
  /** The id of a call, as its results name it. */
  callId(call: Types['toolCall']): string;
  /** The result of a call whose tool returned `output` (or failed: then `output` is the error text). */
  resultOf(call: Types['toolCall'], output: Types['toolOutput'] | string): Types['toolResult'];
}

/**
 * The adapter members both OpenAI conversations build alike: errors, the working context, the request body
 * (the defaults, the fields given for one call, the conversation under its field), and the answers to calls,
 * where a tool that threw answers with `Error: <message>`.
 */
export function openaiAdapterCommon<Types extends OpenAIConversationTypes>(
  settings: { request: Types['request']; systemRole?: 'system' | 'developer' },
  api: OpenAIAdapterApi<Types>,
): Pick<
  ConversationAdapter<Types>,
  'parseContextOverflow' | 'toCompactionError' | 'callId' | 'resultOf' | 'failureOf' | 'context' | 'body'
> {
  // Copied once, so a caller's later changes to the defaults do not leak into requests.
  const defaults = structuredClone(settings.request);
  const options = settings.systemRole === undefined ? {} : { systemRole: settings.systemRole };
  const context = (messages: Message[]) => api.toContext(messages, options);
  return {
    ...openaiConversationErrors,
    callId: api.callId,
    resultOf: api.resultOf,
    failureOf: (call, message) => api.resultOf(call, toolErrorText(message)),
    context,
    body: (messages, request) =>
      ({ ...defaults, ...request, [api.field]: context(messages) }) as Types['body'],
  };
}

/** What the model reads as the output of a tool that threw: `Error: <message>`. */
const toolErrorText = (message: string) => `Error: ${message}`;
