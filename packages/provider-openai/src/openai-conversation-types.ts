import type { ConversationRunOptions } from '@compaction/agent-loop';
import type OpenAI from 'openai';
import type { OpenAIConversationBaseSettings, OpenAIConversationTypes } from './openai-conversation-base.js';

/**
 * The part of the `openai` client a Chat Completions conversation uses: `chat.completions.create` (and
 * `chat.completions.stream` when the conversation streams). An `OpenAI` or `AzureOpenAI` instance satisfies
 * it, and so does any object with the same methods.
 */
export interface OpenAIConversationClient {
  chat: {
    completions: {
      create(body: never, options?: never): PromiseLike<unknown>;
      stream?(body: never, options?: never): { finalChatCompletion(): PromiseLike<unknown> };
    };
  };
}

/** What every request carries besides the messages: `model`, `max_completion_tokens`, `tools`... */
export type OpenAIConversationRequest = Omit<
  OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
  'messages' | 'stream'
>;

/** Settings of {@link createOpenAIConversation}. */
export interface OpenAIConversationSettings extends OpenAIConversationBaseSettings {
  /** The SDK client the requests go through (an `OpenAI` instance). */
  client: OpenAIConversationClient;
  /** Sent with every request: `model`, `max_completion_tokens`, `tools`, `temperature`... */
  request: OpenAIConversationRequest;
  /** Where the conversation starts, system message included. Copied: never changed. */
  messages?: readonly OpenAI.Chat.ChatCompletionMessageParam[];
  /** Role of system messages that compaction creates or that do not say. Default `system`. */
  systemRole?: 'system' | 'developer';
  /**
   * Sends each request as a stream (`stream: true`, with usage in its last chunk) and reads the completion it
   * adds up to. A refusal as too long, before the stream or inside it, is recovered as any other.
   */
  stream?: boolean;
}

/** A tool's answer to one call, as {@link OpenAIConversation.addToolResults} takes it. */
export interface OpenAIToolResult {
  /** The `id` of the tool call this answers. */
  toolCallId: string;
  /** The tool's output (Chat Completions tool messages carry text only). */
  content: string | OpenAI.Chat.ChatCompletionContentPartText[];
}

/** What a user turn may be given as: text, content parts, or a whole user, system or developer message. */
export type OpenAIUserInput =
  | string
  | OpenAI.Chat.ChatCompletionContentPart[]
  | OpenAI.Chat.ChatCompletionMessageParam;

/** The SDK shapes of an {@link OpenAIConversation}. */
export interface OpenAIChatConversationTypes extends OpenAIConversationTypes {
  item: OpenAI.Chat.ChatCompletionMessageParam;
  request: OpenAIConversationRequest;
  body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
  response: OpenAI.Chat.ChatCompletion;
  toolCall: OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
  toolResult: OpenAIToolResult;
  toolOutput: OpenAIToolResult['content'];
  userInput: OpenAIUserInput;
  context: OpenAI.Chat.ChatCompletionMessageParam[];
}

/** Options of {@link OpenAIConversation.run}. A tool that throws answers with the text `Error: <message>`. */
export type OpenAIRunOptions = ConversationRunOptions<OpenAIChatConversationTypes>;
