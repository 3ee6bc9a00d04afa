import type { JSONValue } from '@compaction/core';
import type OpenAI from 'openai';

/** A content part of a Chat Completions message (`text`, `image_url`, `input_audio`, `file`, `refusal`...). */
export interface OpenAIChatContentPart {
  type: string;
  [field: string]: JSONValue | undefined;
}

/** A tool call of an assistant message. */
export interface OpenAIChatToolCall {
  id: string;
  type: string;
  function?: { name: string; arguments: string };
  [field: string]: JSONValue | undefined;
}

/**
 * One Chat Completions message (`system`, `developer`, `user`, `assistant` or `tool`), as plain JSON;
 * structurally compatible with the SDK's `ChatCompletionMessageParam`.
 */
export interface OpenAIChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool' | (string & {});
  content?: string | null | OpenAIChatContentPart[];
  tool_calls?: OpenAIChatToolCall[];
  tool_call_id?: string;
  refusal?: string | null;
  name?: string;
  [field: string]: JSONValue | undefined;
}

/** What {@link fromOpenAIChatMessages} accepts: any list of Chat Completions messages, SDK-typed or plain JSON. */
export type OpenAIChatMessagesInput = ReadonlyArray<{ readonly role: string }>;

/** What {@link toOpenAIChatMessages} returns, typed with the SDK's own message type. */
export type OpenAIChatMessageParam = OpenAI.Chat.ChatCompletionMessageParam;
