import { InvalidMessagesError } from '@compaction/core';
import {
  AgentConversation,
  type AgentConversationTypes,
  type ConversationAdapter,
  type ConversationSendOptions,
} from '@compaction/provider-utils';
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
  ) {
    super({
      compactor: resolveOpenAIConversationCompactor(settings, model, maxOutputTokens),
      sessionId: settings.sessionId,
      adapter,
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

/** The request body of a call: the defaults, the fields given for this call, and the conversation under `field`. */
export function requestBody<Body>(
  defaults: object,
  request: object | undefined,
  field: 'messages' | 'input',
  conversation: unknown,
): Body {
  return { ...defaults, ...request, [field]: conversation } as Body;
}

/** What the model reads as the output of a tool that threw: `Error: <message>`. */
export const toolErrorText = (message: string) => `Error: ${message}`;
