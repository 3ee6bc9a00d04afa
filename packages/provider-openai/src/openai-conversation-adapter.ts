import { answersOfResults, type ConversationAdapter, parseToolArguments } from '@compaction/agent-loop';
import { InvalidOptionsError, ProviderError } from '@compaction/core';
import { callSdkMethod } from '@compaction/provider-utils';
import type OpenAI from 'openai';
import { fromOpenAIChatMessages } from './from-openai-chat-messages.js';
import { addableMessageOf, openaiAdapterCommon } from './openai-conversation-base.js';
import type { OpenAIChatConversationTypes, OpenAIConversationSettings } from './openai-conversation-types.js';
import { toOpenAIChatMessages } from './to-openai-chat-messages.js';

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;

/** How a Chat Completions conversation converts, sends and checks its messages. */
export function openaiConversationAdapter(
  settings: OpenAIConversationSettings,
): ConversationAdapter<OpenAIChatConversationTypes> {
  return {
    vocabulary: { call: 'tool call', result: 'result', callsPath: 'tool_calls', answerPath: 'toolCallId' },
    ...openaiAdapterCommon<OpenAIChatConversationTypes>(settings, {
      field: 'messages',
      toContext: (messages, options) => toOpenAIChatMessages(messages, options) as ChatMessage[],
      callId: (call) => call.id,
      resultOf: (call, content) => ({ toolCallId: call.id, content }),
    }),
    // A tool message converted alone has no tool name; the conversation names it after its call.
    toCore: (items) => fromOpenAIChatMessages(items as ChatMessage[]),
    userItems: (input) => [
      addableMessageOf(
        input,
        (message: ChatMessage) => ['user', 'system', 'developer'].includes(message.role),
        'tools',
      ),
    ],
    resultItems: (results) =>
      results.map((result) => ({ role: 'tool', tool_call_id: result.toolCallId, content: result.content })),
    answersOf: answersOfResults((message) => (message.role === 'tool' ? message.tool_call_id : undefined)),
    pendingToolCalls: pendingCallsOf,
    recall: {
      tool: ({ name, description, inputSchema }): OpenAI.Chat.ChatCompletionFunctionTool => ({
        type: 'function',
        function: { name, description, parameters: inputSchema },
      }),
      toolName: (tool) => {
        const entry = tool as { type?: string; function?: { name?: string }; custom?: { name?: string } };
        return entry.type === 'function' ? entry.function?.name : entry.custom?.name;
      },
      call: (call) => ({ name: call.function.name, input: parseToolArguments(call.function.arguments) }),
    },
    async send(body, signal) {
      const { completions } = settings.client.chat;
      const completion =
        settings.stream === true
          ? await streamedCompletion(completions, body, signal)
          : await callSdkMethod<typeof body, OpenAI.Chat.ChatCompletion>(
              completions,
              completions.create,
              body,
              signal,
            );
      const message = completion.choices?.[0]?.message;
      if (message === undefined) {
        throw new ProviderError({ provider: 'openai', message: 'the completion has no choices' });
      }
      return {
        response: completion,
        items: [assistantMessageOf(message)],
        inputTokens: completion.usage?.prompt_tokens,
      };
    },
  };
}

/** Sends a request as a stream, with usage in its last chunk, and returns the completion it adds up to. */
async function streamedCompletion(
  completions: OpenAIConversationSettings['client']['chat']['completions'],
  body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
  signal: AbortSignal | undefined,
): Promise<OpenAI.Chat.ChatCompletion> {
  if (completions.stream === undefined) {
    const message = 'stream needs a client with chat.completions.stream (an OpenAI instance has it)';
    throw new InvalidOptionsError({ subject: 'OpenAI conversation', issues: [{ path: 'stream', message }] });
  }
  const streamed = { ...body, stream_options: { include_usage: true } };
  const stream = completions.stream.call(
    completions,
    streamed as never,
    (signal === undefined ? {} : { signal }) as never,
  );
  return (await stream.finalChatCompletion()) as OpenAI.Chat.ChatCompletion;
}

/** The tool calls of the last assistant message that no tool message after it answers. */
function pendingCallsOf(
  history: readonly ChatMessage[],
): OpenAI.Chat.ChatCompletionMessageFunctionToolCall[] {
  const index = history.findLastIndex((message) => message.role === 'assistant');
  const assistant = history[index];
  if (assistant?.role !== 'assistant') return [];
  const answered = new Set<string>();
  for (const message of history.slice(index + 1)) {
    if (message.role !== 'tool') return [];
    answered.add(message.tool_call_id);
  }
  return (assistant.tool_calls ?? []).filter(
    (call): call is OpenAI.Chat.ChatCompletionMessageFunctionToolCall =>
      call.type === 'function' && !answered.has(call.id),
  );
}

/** The message an answer adds to the history: what the API takes back of the response message. */
function assistantMessageOf(
  message: OpenAI.Chat.ChatCompletionMessage,
): OpenAI.Chat.ChatCompletionAssistantMessageParam {
  return {
    role: 'assistant',
    content: message.content,
    ...(message.refusal == null ? {} : { refusal: message.refusal }),
    ...(message.tool_calls === undefined || message.tool_calls.length === 0
      ? {}
      : { tool_calls: message.tool_calls }),
    ...(message.audio == null ? {} : { audio: { id: message.audio.id } }),
  };
}
