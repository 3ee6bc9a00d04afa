import { InvalidMessagesError, type Message, ProviderError } from '@compaction/core';
import type OpenAI from 'openai';
import { convertResponsesItems } from './from-openai-responses-input.js';
import {
  OpenAIConversationBase,
  type OpenAIConversationBaseSettings,
  type OpenAIExchange,
  type OpenAISendOptions,
} from './openai-conversation-base.js';
import { toOpenAICompactionError } from './openai-error.js';
import type { OpenAIResponsesItem } from './openai-responses-request.js';
import { parseOpenAIContextOverflow } from './parse-openai-context-overflow.js';
import { toOpenAIResponsesInput } from './to-openai-responses-input.js';

/** The part of the `openai` client a Responses conversation uses: `responses.create`. */
export interface OpenAIResponsesConversationClient {
  responses: { create(body: never, options?: never): PromiseLike<unknown> };
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

/** Options of {@link OpenAIResponsesConversation.run}. */
export interface OpenAIResponsesRunOptions extends OpenAISendOptions<OpenAIResponsesConversationRequest> {
  /** Runs one function call. A thrown error becomes the output `Error: <message>`. */
  runTool: (call: OpenAI.Responses.ResponseFunctionToolCall) => string | Promise<string>;
  /** Most model calls before `run` returns even if the model still calls functions. Default 25. */
  maxSteps?: number;
}

/**
 * A Responses API conversation that stays inside the context window: the same loop as
 * {@link OpenAIConversation} over `responses.create`, holding the history as input items. The output items of
 * each response (messages, function calls, reasoning) are appended as they came, so they go back verbatim;
 * reasoning models need `store: false` with `include: ['reasoning.encrypted_content']`, or a stored
 * response, for their reasoning items to be accepted back. A failed response whose error is
 * `context_length_exceeded` counts as an overflow refusal; any other failed response throws `ProviderError`.
 */
export class OpenAIResponsesConversation extends OpenAIConversationBase<
  OpenAI.Responses.ResponseInputItem,
  OpenAIResponsesConversationRequest,
  OpenAI.Responses.ResponseCreateParamsNonStreaming,
  OpenAI.Responses.Response
> {
  private readonly client: OpenAIResponsesConversationClient;
  private readonly defaults: OpenAIResponsesConversationRequest;
  private readonly systemRole: 'system' | 'developer' | undefined;
  /** Every call appended so far, by id, with its tool's name. */
  private readonly callNames = new Map<string, string>();

  constructor(settings: OpenAIResponsesConversationSettings) {
    const request = settings.request;
    super(settings, request.model ?? '', request.max_output_tokens ?? undefined);
    this.client = settings.client;
    this.defaults = structuredClone(request);
    this.systemRole = settings.systemRole;
    // One group: an assistant run of several items becomes one core message, as in a single conversion.
    this.append(settings.input ?? []);
  }

  /** The working context as the next request's `input` (before any compaction it triggers). */
  get context(): OpenAI.Responses.ResponseInputItem[] {
    return this.input(this.coreContext);
  }

  /** The function calls that have no output yet (answer them with {@link addToolResults}). */
  get pendingToolCalls(): OpenAI.Responses.ResponseFunctionToolCall[] {
    const open = new Map<string, OpenAI.Responses.ResponseFunctionToolCall>();
    for (const item of this.history) {
      if (item.type === 'function_call') open.set(item.call_id, item);
      else if (item.type === 'function_call_output') open.delete(item.call_id);
      else if (isMessageFrom(item, ['user', 'system', 'developer'])) open.clear();
    }
    return [...open.values()];
  }

  /** Appends a user (or system, developer) message without sending it. Throws if calls are pending. */
  addUserMessage(input: OpenAIResponsesUserInput): void {
    const item = itemOf(input);
    const pending = this.pendingToolCalls;
    if (pending.length > 0) {
      throw new InvalidMessagesError({
        issues: pending.map((call) => ({
          index: -1,
          path: 'input',
          message: `function call ${call.call_id} has no output; add one first`,
        })),
      });
    }
    this.append([item]);
  }

  /** Appends outputs of pending function calls. Every result must answer a pending call. */
  addToolResults(results: readonly OpenAIResponsesToolResult[]): void {
    const pending = new Set(this.pendingToolCalls.map((call) => call.call_id));
    const issues = results.flatMap((result, index) =>
      pending.delete(result.callId)
        ? []
        : [{ index, path: 'callId', message: `${result.callId} answers no pending function call` }],
    );
    if (issues.length > 0) throw new InvalidMessagesError({ issues });
    this.append(
      results.map(
        (result): OpenAI.Responses.ResponseInputItem => ({
          type: 'function_call_output',
          call_id: result.callId,
          output: result.output,
        }),
      ),
    );
  }

  /** Appends `input` (when given), compacts if the trigger fires, sends and appends the response's output. */
  async send(
    input?: OpenAIResponsesUserInput,
    options: OpenAISendOptions<OpenAIResponsesConversationRequest> = {},
  ): Promise<OpenAI.Responses.Response> {
    if (input !== undefined) this.addUserMessage(input);
    else if (this.pendingToolCalls.length > 0) {
      throw new InvalidMessagesError({
        issues: [{ index: -1, path: 'input', message: 'answer the pending function calls before sending' }],
      });
    }
    return this.exchange(options);
  }

  /**
   * The whole agent loop: sends `input`, runs the functions the model calls with `runTool` (concurrently),
   * sends their outputs, and repeats until the model calls none or `maxSteps` model calls were made.
   */
  async run(
    input: OpenAIResponsesUserInput | undefined,
    options: OpenAIResponsesRunOptions,
  ): Promise<OpenAI.Responses.Response> {
    const { runTool, maxSteps = 25, ...sendOptions } = options;
    let response = await this.send(input, sendOptions);
    for (let step = 1; step < maxSteps && this.pendingToolCalls.length > 0; step++) {
      const results = await Promise.all(
        this.pendingToolCalls.map(async (call) => ({
          callId: call.call_id,
          output: await runOne(runTool, call),
        })),
      );
      this.addToolResults(results);
      response = await this.send(undefined, sendOptions);
    }
    return response;
  }

  protected toCore(items: OpenAI.Responses.ResponseInputItem[]): Message[] {
    // Outputs are appended apart from their calls: the calls seen so far pair them.
    return convertResponsesItems(items as unknown as OpenAIResponsesItem[], this.callNames);
  }

  protected body(messages: Message[], request: Partial<OpenAIResponsesConversationRequest> | undefined) {
    return {
      ...this.defaults,
      ...request,
      input: this.input(messages),
    } as OpenAI.Responses.ResponseCreateParamsNonStreaming;
  }

  protected async call(
    body: OpenAI.Responses.ResponseCreateParamsNonStreaming,
    signal: AbortSignal | undefined,
  ): Promise<OpenAIExchange<OpenAI.Responses.ResponseInputItem, OpenAI.Responses.Response>> {
    const create = this.client.responses.create as unknown as (
      body: OpenAI.Responses.ResponseCreateParamsNonStreaming,
      options?: { signal: AbortSignal },
    ) => PromiseLike<OpenAI.Responses.Response>;
    const response = await create.call(
      this.client.responses,
      body,
      signal === undefined ? undefined : { signal },
    );
    if (response.status === 'failed') {
      if (parseOpenAIContextOverflow(response) !== undefined) throw toOpenAICompactionError(response);
      throw new ProviderError({
        provider: 'openai',
        message: `the response failed: ${response.error?.message ?? 'no reason given'}`,
        cause: response,
      });
    }
    return {
      response,
      items: response.output as unknown as OpenAI.Responses.ResponseInputItem[],
      inputTokens: response.usage?.input_tokens,
    };
  }

  private input(messages: Message[]): OpenAI.Responses.ResponseInputItem[] {
    const input = toOpenAIResponsesInput(
      messages,
      this.systemRole === undefined ? {} : { systemRole: this.systemRole },
    );
    // The conversation never starts from a string input, so the converter gives items back.
    return typeof input === 'string' ? [{ role: 'user', content: input }] : input;
  }
}

/** Creates an {@link OpenAIResponsesConversation}. Throws `InvalidOptionsError` for invalid compaction settings. */
export function createOpenAIResponsesConversation(
  settings: OpenAIResponsesConversationSettings,
): OpenAIResponsesConversation {
  return new OpenAIResponsesConversation(settings);
}

function isMessageFrom(item: OpenAI.Responses.ResponseInputItem, roles: string[]): boolean {
  return 'role' in item && (item.type === undefined || item.type === 'message') && roles.includes(item.role);
}

function itemOf(input: OpenAIResponsesUserInput): OpenAI.Responses.ResponseInputItem {
  if (typeof input === 'string' || Array.isArray(input)) return { role: 'user', content: input };
  if (!isMessageFrom(input, ['user', 'system', 'developer'])) {
    throw new InvalidMessagesError({
      issues: [
        {
          index: -1,
          path: 'role',
          message: 'only user, system and developer messages can be added; use addToolResults for functions',
        },
      ],
    });
  }
  return input;
}

async function runOne(
  runTool: OpenAIResponsesRunOptions['runTool'],
  call: OpenAI.Responses.ResponseFunctionToolCall,
): Promise<string> {
  try {
    return await runTool(call);
  } catch (error) {
    return `Error: ${error instanceof Error ? error.message : String(error)}`;
  }
}
