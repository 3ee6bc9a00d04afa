import type Anthropic from '@anthropic-ai/sdk';
import type { AgentConversationTypes, ConversationAdapter } from '@compaction/agent-loop';
import { InvalidOptionsError, type Message } from '@compaction/core';
import { callSdkMethod, frozenCopy } from '@compaction/provider-utils';
import { isCompactionPart } from './anthropic-content-blocks.js';
import { type AnthropicContextManagement, contextManagementBetas } from './anthropic-context-management.js';
import {
  type AnthropicToolOutput,
  type AnthropicToolResult,
  type AnthropicUserInput,
  toolResultBlocks,
  toolUsesOf,
  userMessageOf,
} from './anthropic-conversation-messages.js';
import type {
  AnthropicConversationRequest,
  AnthropicConversationSettings,
} from './anthropic-conversation-settings.js';
import { toAnthropicCompactionError } from './anthropic-error.js';
import type { AnthropicMessagesRequest } from './anthropic-request.js';
import { fromAnthropicRequest } from './from-anthropic-request.js';
import { parseAnthropicContextOverflow } from './parse-anthropic-context-overflow.js';
import { toAnthropicRequest } from './to-anthropic-request.js';

/** The SDK shapes of an {@link AnthropicConversation}. */
export interface AnthropicConversationTypes extends AgentConversationTypes {
  item: Anthropic.MessageParam;
  request: AnthropicConversationRequest;
  body: Anthropic.MessageCreateParamsNonStreaming;
  response: Anthropic.Message;
  toolCall: Anthropic.ToolUseBlockParam;
  toolResult: AnthropicToolResult;
  toolOutput: AnthropicToolOutput;
  userInput: AnthropicUserInput;
  context: AnthropicMessagesRequest;
  /** The Messages API always reports usage. */
  inputTokens: number;
}

/**
 * Sends one request: through `messages.create`, or with `contextManagement` through the beta API with the
 * edits and their beta flags (the answer may then carry compaction blocks, kept as they came).
 */
async function sendMessages(
  settings: AnthropicConversationSettings,
  body: Anthropic.MessageCreateParamsNonStreaming,
  signal: AbortSignal | undefined,
): Promise<Anthropic.Message> {
  const { contextManagement, client } = settings;
  if (settings.stream === true) return streamMessage(settings, body, signal);
  if (contextManagement === undefined) {
    return callSdkMethod<typeof body, Anthropic.Message>(
      client.messages,
      client.messages.create,
      body,
      signal,
    );
  }
  const beta = betaMessagesOf(settings);
  const betaBody = {
    ...body,
    context_management: { edits: contextManagement.edits },
    betas: contextManagementBetas(contextManagement.edits),
  };
  return callSdkMethod<typeof betaBody, Anthropic.Message>(beta, beta.create, betaBody, signal);
}

/**
 * Sends one request as a stream and returns its final message; an error event of the stream (a refusal the
 * API streams) rejects with the SDK's error, as a refusal before the stream does.
 */
async function streamMessage(
  settings: AnthropicConversationSettings,
  body: Anthropic.MessageCreateParamsNonStreaming,
  signal: AbortSignal | undefined,
): Promise<Anthropic.Message> {
  const { messages } = settings.client;
  if (messages.stream === undefined || settings.contextManagement !== undefined) {
    const message =
      settings.contextManagement === undefined
        ? 'stream needs a client with messages.stream (an Anthropic instance has it)'
        : 'stream and contextManagement cannot be combined';
    throw new InvalidOptionsError({
      subject: 'Anthropic conversation',
      issues: [{ path: 'stream', message }],
    });
  }
  const stream = messages.stream.call(
    messages,
    body as never,
    (signal === undefined ? {} : { signal }) as never,
  );
  return (await stream.finalMessage()) as Anthropic.Message;
}

/** The client's beta Messages API; `InvalidOptionsError` when it has none. */
function betaMessagesOf(settings: AnthropicConversationSettings) {
  const beta = settings.client.beta?.messages;
  if (beta !== undefined) return beta;
  const message = 'contextManagement needs a client with beta.messages.create (an Anthropic instance has it)';
  throw new InvalidOptionsError({ subject: 'Anthropic conversation', issues: [{ path: 'client', message }] });
}

/**
 * `pause_after_compaction: true` makes the API stop after the compaction block (`stop_reason: 'compaction'`)
 * for the client to rebuild the messages around it before sampling goes on. The conversation does not do that
 * rebuilding, and `run` would stop at such an answer as if the model were done, so the setting is refused
 * rather than half-handled: without it the API compacts and answers in the same response.
 */
function refusePauseAfterCompaction(edits: AnthropicContextManagement['edits']): void {
  const index = edits.findIndex(
    (edit) => edit.type === 'compact_20260112' && edit.pause_after_compaction === true,
  );
  if (index === -1) return;
  const message =
    'pause_after_compaction is not supported by the conversation: leave it unset, and the API answers in the same response';
  throw new InvalidOptionsError({
    subject: 'Anthropic conversation',
    issues: [{ path: `contextManagement.edits.${index}.pause_after_compaction`, message }],
  });
}

/** How an Anthropic conversation converts, sends and checks Messages API shapes. */
export function anthropicConversationAdapter(
  settings: AnthropicConversationSettings,
): ConversationAdapter<AnthropicConversationTypes> {
  if (settings.contextManagement !== undefined) {
    betaMessagesOf(settings);
    refusePauseAfterCompaction(settings.contextManagement.edits);
  }
  const defaults = frozenCopy(settings.request);
  const converterOptions =
    settings.firstUserText === undefined ? {} : { firstUserText: settings.firstUserText };
  /** How many core messages the last history message converted to (the next conversion skips them). */
  let lastConvertedLength = 0;
  return {
    vocabulary: { call: 'tool call', result: 'result', callsPath: 'content', answerPath: 'toolUseId' },
    parseContextOverflow: parseAnthropicContextOverflow,
    toCompactionError: (error) => toAnthropicCompactionError(error),
    isNativeCompactionPart: isCompactionPart,
    // Each message is converted with the one before it: which turn it continues, which calls it answers.
    toCore(items, previous) {
      let before = previous.at(-1);
      return items.flatMap((message): Message[] => {
        const core = fromAnthropicRequest({ messages: before === undefined ? [message] : [before, message] });
        const added = core.slice(before === undefined ? 0 : lastConvertedLength);
        before = message;
        lastConvertedLength = added.length;
        return added;
      });
    },
    userItems: (input) => [userMessageOf(input)],
    resultItems: (results) => [{ role: 'user', content: toolResultBlocks(results) }],
    // A user turn answers the calls just before it, all of them.
    answersOf: (items) => ({
      callIds: items.flatMap((message) =>
        typeof message.content === 'string'
          ? []
          : message.content.flatMap((block) => (block.type === 'tool_result' ? [block.tool_use_id] : [])),
      ),
      closesTurn: true,
    }),
    pendingToolCalls: (history) => toolUsesOf(history.at(-1)),
    callId: (call) => call.id,
    resultOf: (call, output) => ({
      toolUseId: call.id,
      ...(typeof output === 'string' || Array.isArray(output) ? { content: output } : output),
    }),
    failureOf: (call, message) => ({ toolUseId: call.id, content: message, isError: true }),
    context: (messages) => toAnthropicRequest(messages, converterOptions),
    body: (messages, request) =>
      ({
        ...defaults,
        ...request,
        ...toAnthropicRequest(messages, converterOptions),
      }) as Anthropic.MessageCreateParamsNonStreaming,
    recall: {
      tool: ({ name, description, inputSchema }): Anthropic.Tool => ({
        name,
        description,
        input_schema: inputSchema as Anthropic.Tool.InputSchema,
      }),
      // Every entry of Anthropic's tools has a name, server tools' included.
      toolName: (tool) => (tool as { name?: string }).name,
      call: (call) => ({ name: call.name, input: call.input }),
    },
    note: {
      body: (body, maximumTokens) => ({
        ...body,
        // Thinking counts against max_tokens, which must be above its budget: the note gets its own room.
        max_tokens: maximumTokens + (body.thinking?.type === 'enabled' ? body.thinking.budget_tokens : 0),
        ...((body.tools?.length ?? 0) > 0 ? { tool_choice: { type: 'none' } } : {}),
      }),
      text: (response) =>
        response.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n'),
    },
    async send(body, signal) {
      const response = await sendMessages(settings, body, signal);
      // Anthropic reports cached input apart; the total is what the context window held.
      const inputTokens =
        response.usage.input_tokens +
        (response.usage.cache_read_input_tokens ?? 0) +
        (response.usage.cache_creation_input_tokens ?? 0);
      const answer: Anthropic.MessageParam = {
        role: 'assistant',
        content: response.content as Anthropic.ContentBlockParam[],
      };
      return { response, items: [answer], inputTokens };
    },
  };
}
