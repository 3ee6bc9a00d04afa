import type { NoteWire } from '@compaction/agent-loop';
import type { OpenAIChatConversationTypes } from './openai-conversation-types.js';
import type { OpenAIResponsesConversationTypes } from './openai-responses-conversation-types.js';

/** Whether a body offers tools: `tool_choice: 'none'` is sent only with some. */
const hasTools = (body: { tools?: readonly unknown[] | null | undefined }) => (body.tools?.length ?? 0) > 0;

/**
 * The note turn of a Chat Completions conversation: `max_completion_tokens` (which reasoning models spend
 * their reasoning from too) in place of any output limit, and no tool calls.
 */
export const openaiChatNoteWire: NoteWire<OpenAIChatConversationTypes> = {
  body: ({ max_tokens: _legacyLimit, ...body }, maximumTokens) => ({
    ...body,
    max_completion_tokens: maximumTokens,
    ...(hasTools(body) ? { tool_choice: 'none' } : {}),
  }),
  text: (completion) => {
    const content = completion.choices?.[0]?.message?.content;
    return typeof content === 'string' ? content : '';
  },
};

/** The note turn of a Responses conversation: `max_output_tokens`, and no tool calls. */
export const openaiResponsesNoteWire: NoteWire<OpenAIResponsesConversationTypes> = {
  body: (body, maximumTokens) => ({
    ...body,
    max_output_tokens: maximumTokens,
    ...(hasTools(body) ? { tool_choice: 'none' } : {}),
  }),
  // Read from the output items: `output_text` is the SDK's convenience, absent from a plain answer.
  text: (response) =>
    response.output
      .flatMap((item) => (item.type === 'message' ? item.content : []))
      .flatMap((part) => (part.type === 'output_text' ? [part.text] : []))
      .join('\n'),
};
