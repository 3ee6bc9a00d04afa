import { InvalidMessagesError, type Message, ProviderError } from '@compaction/core';
import type OpenAI from 'openai';
import { fromOpenAIChatMessages } from './from-openai-chat-messages.js';
import {
  OpenAIConversationBase,
  type OpenAIConversationBaseSettings,
  type OpenAIExchange,
  type OpenAISendOptions,
} from './openai-conversation-base.js';
import { toOpenAIChatMessages } from './to-openai-chat-messages.js';

/**
 * The part of the `openai` client a Chat Completions conversation uses: `chat.completions.create`. An `OpenAI`
 * or `AzureOpenAI` instance satisfies it, and so does any object with the same method.
 */
export interface OpenAIConversationClient {
  chat: { completions: { create(body: never, options?: never): PromiseLike<unknown> } };
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

/** Options of {@link OpenAIConversation.run}. */
export interface OpenAIRunOptions extends OpenAISendOptions<OpenAIConversationRequest> {
  /** Runs one tool call. A thrown error becomes the result text `Error: <message>`. */
  runTool: (
    call: OpenAI.Chat.ChatCompletionMessageFunctionToolCall,
  ) => OpenAIToolResult['content'] | Promise<OpenAIToolResult['content']>;
  /** Most model calls before `run` returns even if the model still calls tools. Default 25. */
  maxSteps?: number;
}

/**
 * A Chat Completions conversation that stays inside the context window. It holds the full history in the
 * SDK's message shape and a working context; before each request it compacts when the trigger fires, sends
 * with the real SDK client, appends the answer and records the reported prompt tokens (cached ones are part
 * of them), so the next count is exact for what was sent. After a `context_length_exceeded` refusal it
 * compacts with the `overflow` trigger and retries once; a second refusal throws `ContextOverflowError`.
 * Other SDK errors are thrown unchanged.
 *
 * Messages given to it are copied, never changed; the messages it holds are frozen.
 */
export class OpenAIConversation extends OpenAIConversationBase<
  OpenAI.Chat.ChatCompletionMessageParam,
  OpenAIConversationRequest,
  OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
  OpenAI.Chat.ChatCompletion
> {
  private readonly client: OpenAIConversationClient;
  private readonly defaults: OpenAIConversationRequest;
  private readonly systemRole: 'system' | 'developer' | undefined;

  constructor(settings: OpenAIConversationSettings) {
    const request = settings.request;
    super(settings, request.model, request.max_completion_tokens ?? request.max_tokens ?? undefined);
    this.client = settings.client;
    this.defaults = structuredClone(request);
    this.systemRole = settings.systemRole;
    for (const message of settings.messages ?? []) this.append([message]);
  }

  /** The working context as the next request would carry it (before any compaction it triggers). */
  get context(): OpenAI.Chat.ChatCompletionMessageParam[] {
    return toOpenAIChatMessages(this.coreContext, this.converterOptions());
  }

  /** The tool calls of the last answer that have no result yet (answer them with {@link addToolResults}). */
  get pendingToolCalls(): OpenAI.Chat.ChatCompletionMessageFunctionToolCall[] {
    const history = this.history;
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

  /** Appends a user (or system, developer) message without sending it. Throws if tool calls are pending. */
  addUserMessage(input: OpenAIUserInput): void {
    const message = messageOf(input);
    const pending = this.pendingToolCalls;
    if (pending.length > 0) {
      throw new InvalidMessagesError({
        issues: pending.map((call) => ({
          index: -1,
          path: 'tool_calls',
          message: `tool call ${call.id} has no result; add one first`,
        })),
      });
    }
    this.append([message]);
  }

  /**
   * Appends tool messages answering pending tool calls, without sending them. Every result must answer a
   * pending call; otherwise `InvalidMessagesError` is thrown and nothing is appended.
   */
  addToolResults(results: readonly OpenAIToolResult[]): void {
    const pending = new Set(this.pendingToolCalls.map((call) => call.id));
    const issues = results.flatMap((result, index) => {
      const ok = pending.delete(result.toolCallId);
      return ok
        ? []
        : [{ index, path: 'toolCallId', message: `${result.toolCallId} answers no pending tool call` }];
    });
    if (issues.length > 0) throw new InvalidMessagesError({ issues });
    this.append(
      results.map((result) => ({ role: 'tool', tool_call_id: result.toolCallId, content: result.content })),
    );
  }

  /**
   * Appends `input` (when given), compacts if the trigger fires, sends the request and appends the answer,
   * which it returns. Call it without input after {@link addToolResults}.
   */
  async send(
    input?: OpenAIUserInput,
    options: OpenAISendOptions<OpenAIConversationRequest> = {},
  ): Promise<OpenAI.Chat.ChatCompletion> {
    if (input !== undefined) this.addUserMessage(input);
    else if (this.pendingToolCalls.length > 0) {
      throw new InvalidMessagesError({
        issues: [{ index: -1, path: 'tool_calls', message: 'answer the pending tool calls before sending' }],
      });
    }
    return this.exchange(options);
  }

  /**
   * The whole agent loop: sends `input`, runs the tools the model calls with `runTool` (calls of one answer
   * run concurrently), sends their results, and repeats until the model stops calling tools or `maxSteps`
   * model calls were made. Returns the last completion.
   */
  async run(
    input: OpenAIUserInput | undefined,
    options: OpenAIRunOptions,
  ): Promise<OpenAI.Chat.ChatCompletion> {
    const { runTool, maxSteps = 25, ...sendOptions } = options;
    let completion = await this.send(input, sendOptions);
    for (let step = 1; step < maxSteps && this.pendingToolCalls.length > 0; step++) {
      const results = await Promise.all(
        this.pendingToolCalls.map(async (call) => ({
          toolCallId: call.id,
          content: await runOne(runTool, call),
        })),
      );
      this.addToolResults(results);
      completion = await this.send(undefined, sendOptions);
    }
    return completion;
  }

  protected toCore(items: OpenAI.Chat.ChatCompletionMessageParam[]): Message[] {
    return fromOpenAIChatMessages(items);
  }

  protected body(
    messages: Message[],
    request: Partial<OpenAIConversationRequest> | undefined,
  ): OpenAI.Chat.ChatCompletionCreateParamsNonStreaming {
    return {
      ...this.defaults,
      ...request,
      messages: toOpenAIChatMessages(messages, this.converterOptions()),
    } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
  }

  protected async call(
    body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
    signal: AbortSignal | undefined,
  ): Promise<OpenAIExchange<OpenAI.Chat.ChatCompletionMessageParam, OpenAI.Chat.ChatCompletion>> {
    const create = this.client.chat.completions.create as unknown as (
      body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
      options?: { signal: AbortSignal },
    ) => PromiseLike<OpenAI.Chat.ChatCompletion>;
    const completion = await create.call(
      this.client.chat.completions,
      body,
      signal === undefined ? undefined : { signal },
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
  }

  private converterOptions() {
    return this.systemRole === undefined ? {} : { systemRole: this.systemRole };
  }
}

/** Creates an {@link OpenAIConversation}. Throws `InvalidOptionsError` for invalid compaction settings. */
export function createOpenAIConversation(settings: OpenAIConversationSettings): OpenAIConversation {
  return new OpenAIConversation(settings);
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

function messageOf(input: OpenAIUserInput): OpenAI.Chat.ChatCompletionMessageParam {
  if (typeof input === 'string' || Array.isArray(input)) return { role: 'user', content: input };
  if (input.role !== 'user' && input.role !== 'system' && input.role !== 'developer') {
    throw new InvalidMessagesError({
      issues: [
        {
          index: -1,
          path: 'role',
          message: 'only user, system and developer messages can be added; use addToolResults for tools',
        },
      ],
    });
  }
  return input;
}

async function runOne(
  runTool: OpenAIRunOptions['runTool'],
  call: OpenAI.Chat.ChatCompletionMessageFunctionToolCall,
): Promise<OpenAIToolResult['content']> {
  try {
    return await runTool(call);
  } catch (error) {
    return `Error: ${error instanceof Error ? error.message : String(error)}`;
  }
}
