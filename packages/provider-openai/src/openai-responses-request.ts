import type { JSONValue } from '@compaction/core';
import type OpenAI from 'openai';

/**
 * One item of a Responses API `input` list, as plain JSON: a message (`{ role, content }`, with or without
 * `type: 'message'`), `function_call`, `function_call_output`, `reasoning`, or any other item type (kept
 * verbatim). Structurally compatible with the SDK's `ResponseInputItem`.
 */
export interface OpenAIResponsesItem {
  type?: string;
  role?: string;
  [field: string]: JSONValue | undefined;
}

/** The `input` of a Responses API request: a string or a list of items. */
export type OpenAIResponsesInput = string | OpenAIResponsesItem[];

/** What {@link fromOpenAIResponsesInput} accepts: a Responses `input`, SDK-typed or plain JSON. */
export type OpenAIResponsesInputLike = string | ReadonlyArray<object>;

/** What {@link toOpenAIResponsesInput} returns, typed with the SDK's own input type. */
export type OpenAIResponsesInputParam = string | OpenAI.Responses.ResponseInputItem[];
