import { answersOfResults, type ConversationAdapter, parseToolArguments } from '@compaction/agent-loop';
import { InvalidOptionsError, ProviderError } from '@compaction/core';
import { callSdkMethod } from '@compaction/provider-utils';
import type OpenAI from 'openai';
import { convertResponsesItems } from './from-openai-responses-input.js';
import {
  addableMessageOf,
  openaiAdapterCommon,
  openaiConversationErrors,
} from './openai-conversation-base.js';
import { isCompactionItemPart } from './openai-responses-content-parts.js';
import type {
  OpenAIResponsesConversationSettings,
  OpenAIResponsesConversationTypes,
} from './openai-responses-conversation-types.js';
import type { OpenAIResponsesItem } from './openai-responses-request.js';
import { refuseStoredContext } from './openai-responses-stored-context.js';
import { parseOpenAIContextOverflow } from './parse-openai-context-overflow.js';
import { toOpenAIResponsesInput } from './to-openai-responses-input.js';

type InputItem = OpenAI.Responses.ResponseInputItem;

/** Sends a request as a stream and returns the response it ends with (a failed one included). */
async function streamedResponse(
  responses: OpenAIResponsesConversationSettings['client']['responses'],
  body: OpenAI.Responses.ResponseCreateParamsNonStreaming,
  signal: AbortSignal | undefined,
): Promise<OpenAI.Responses.Response> {
  if (responses.stream === undefined) {
    const message = 'stream needs a client with responses.stream (an OpenAI instance has it)';
    throw new InvalidOptionsError({
      subject: 'OpenAI Responses conversation',
      issues: [{ path: 'stream', message }],
    });
  }
  const stream = responses.stream.call(
    responses,
    body as never,
    (signal === undefined ? {} : { signal }) as never,
  );
  return (await stream.finalResponse()) as OpenAI.Responses.Response;
}

/** How a Responses conversation converts, sends and checks its input items. */
export function openaiResponsesConversationAdapter(
  settings: OpenAIResponsesConversationSettings,
): ConversationAdapter<OpenAIResponsesConversationTypes> {
  /** Every call appended so far, by id, with its tool's name. */
  const callNames = new Map<string, string>();
  return {
    vocabulary: { call: 'function call', result: 'output', callsPath: 'input', answerPath: 'callId' },
    ...openaiAdapterCommon<OpenAIResponsesConversationTypes>(settings, {
      field: 'input',
      toContext: (messages, options) => {
        const input = toOpenAIResponsesInput(messages, options);
        // The conversation never starts from a string input, so the converter gives items back.
        return typeof input === 'string' ? [{ role: 'user', content: input }] : (input as InputItem[]);
      },
      callId: (call) => call.call_id,
      resultOf: (call, output) => ({ callId: call.call_id, output }),
    }),
    // Outputs are appended apart from their calls: the calls seen so far pair them.
    toCore: (items) => convertResponsesItems(items as unknown as OpenAIResponsesItem[], callNames),
    userItems: (input) => [
      addableMessageOf(
        input,
        (item: OpenAI.Responses.EasyInputMessage) => isMessageFrom(item, addableRoles),
        'functions',
      ),
    ],
    resultItems: (results) =>
      results.map(
        (result): InputItem => ({
          type: 'function_call_output',
          call_id: result.callId,
          output: result.output,
        }),
      ),
    answersOf: answersOfResults((item) => (item.type === 'function_call_output' ? item.call_id : undefined)),
    pendingToolCalls: pendingCallsOf,
    isNativeCompactionPart: isCompactionItemPart,
    recall: {
      // Not strict: strict schemas must require every argument, and the line range and pattern are optional.
      tool: ({ name, description, inputSchema }): OpenAI.Responses.FunctionTool => ({
        type: 'function',
        name,
        description,
        parameters: inputSchema,
        strict: false,
      }),
      toolName: (tool) => (tool as { name?: string }).name,
      call: (call) => ({ name: call.name, input: parseToolArguments(call.arguments) }),
    },
    async send(body, signal) {
      refuseStoredContext(body, 'request');
      const { responses } = settings.client;
      const response =
        settings.stream === true
          ? await streamedResponse(responses, body, signal)
          : await callSdkMethod<typeof body, OpenAI.Responses.Response>(
              responses,
              responses.create,
              body,
              signal,
            );
      if (response.status === 'failed') {
        if (parseOpenAIContextOverflow(response) !== undefined) {
          throw openaiConversationErrors.toCompactionError(response);
        }
        throw new ProviderError({
          provider: 'openai',
          message: `the response failed: ${response.error?.message ?? 'no reason given'}`,
          cause: response,
        });
      }
      return {
        response,
        items: response.output as unknown as InputItem[],
        inputTokens: response.usage?.input_tokens,
      };
    },
  };
}

const addableRoles = ['user', 'system', 'developer'];

/** The function calls without an output since the last message a caller added. */
function pendingCallsOf(history: readonly InputItem[]): OpenAI.Responses.ResponseFunctionToolCall[] {
  const open = new Map<string, OpenAI.Responses.ResponseFunctionToolCall>();
  for (const item of history) {
    if (item.type === 'function_call') open.set(item.call_id, item);
    else if (item.type === 'function_call_output') open.delete(item.call_id);
    else if (isMessageFrom(item, addableRoles)) open.clear();
  }
  return [...open.values()];
}

function isMessageFrom(item: InputItem, roles: string[]): boolean {
  return 'role' in item && (item.type === undefined || item.type === 'message') && roles.includes(item.role);
}
