import type { ConversationRunOptions } from '@compaction/agent-loop';
import type OpenAI from 'openai';
import type { OpenAIConversationBaseSettings, OpenAIConversationTypes } from './openai-conversation-base.js';

/**
 * The part of the `openai` client a Responses conversation uses: `responses.create` (and `responses.stream`
 * when the conversation streams).
 */
export interface OpenAIResponsesConversationClient {
  responses: {
    create(body: never, options?: never): PromiseLike<unknown>;
    stream?(body: never, options?: never): { finalResponse(): PromiseLike<unknown> };
  };
}

/**
 * What every request carries besides `input`: `model`, `instructions`, `tools`, `max_output_tokens`,
 * `store`... The conversation sends its whole context each time, so `previous_response_id` and
 * `conversation` have no place here.
 */
export type OpenAIResponsesConversationRequest = Omit<
  OpenAI.Responses.ResponseCreateParamsNonStreaming,
  'input' | 'stream' | 'previous_response_id' | 'conversation'
>;

/** Settings of {@link createOpenAIResponsesConversation}. */
export interface OpenAIResponsesConversationSettings extends OpenAIConversationBaseSettings {
  /** The SDK client the requests go through (an `OpenAI` instance). */
  client: OpenAIResponsesConversationClient;
  /** Sent with every request. */
  request: OpenAIResponsesConversationRequest;
  /** Input items the conversation starts with. Copied: never changed. */
  input?: readonly OpenAI.Responses.ResponseInputItem[];
  /** Role of system messages that compaction creates or that do not say. Default `system`. */
  systemRole?: 'system' | 'developer';
  /**
   * Sends each request as a stream (`stream: true`) and reads the response it ends with. A refusal as too
   * long, before the stream or as a `response.failed` inside it, is recovered as any other.
   */
  stream?: boolean;
}

/** A function's output for one call, as {@link OpenAIResponsesConversation.addToolResults} takes it. */
export interface OpenAIResponsesToolResult {
  /** The `call_id` of the `function_call` this answers. */
  callId: string;
  output: string;
}

/** What a user turn may be given as: text, content parts, or a whole user, system or developer message item. */
export type OpenAIResponsesUserInput =
  | string
  | OpenAI.Responses.ResponseInputMessageContentList
  | OpenAI.Responses.EasyInputMessage;

/** The SDK shapes of an {@link OpenAIResponsesConversation}. */
export interface OpenAIResponsesConversationTypes extends OpenAIConversationTypes {
  item: OpenAI.Responses.ResponseInputItem;
  request: OpenAIResponsesConversationRequest;
  body: OpenAI.Responses.ResponseCreateParamsNonStreaming;
  response: OpenAI.Responses.Response;
  toolCall: OpenAI.Responses.ResponseFunctionToolCall;
  toolResult: OpenAIResponsesToolResult;
  toolOutput: string;
  userInput: OpenAIResponsesUserInput;
  context: OpenAI.Responses.ResponseInputItem[];
}

/** Options of {@link OpenAIResponsesConversation.run}. A function that throws answers `Error: <message>`. */
export type OpenAIResponsesRunOptions = ConversationRunOptions<OpenAIResponsesConversationTypes>;
