import type Anthropic from '@anthropic-ai/sdk';
import {
  type CompactionEvent,
  type CompactionResult,
  type Compactor,
  ConversationLoop,
  frozenCopy,
  InvalidMessagesError,
  type Message,
} from '@compaction/core';
import type { AnthropicConversationEvents } from './anthropic-conversation-events.js';
import {
  type AnthropicToolResult,
  type AnthropicUserInput,
  assertAnswersToolCalls,
  toolResultBlocks,
  toolUsesOf,
  userMessageOf,
} from './anthropic-conversation-messages.js';
import {
  type AnthropicConversationClient,
  type AnthropicConversationRequest,
  type AnthropicConversationSettings,
  resolveAnthropicConversationCompactor,
} from './anthropic-conversation-settings.js';
import { toAnthropicCompactionError } from './anthropic-error.js';
import type { AnthropicMessagesRequest } from './anthropic-request.js';
import { fromAnthropicRequest } from './from-anthropic-request.js';
import { parseAnthropicContextOverflow } from './parse-anthropic-context-overflow.js';
import { type ToAnthropicRequestOptions, toAnthropicRequest } from './to-anthropic-request.js';

/** Options of one {@link AnthropicConversation.send}. */
export interface AnthropicSendOptions {
  /** Fields that replace the conversation's request defaults for this call only (`max_tokens`, `tool_choice`...). */
  request?: Partial<AnthropicConversationRequest>;
  /** Aborts the compaction and the request. */
  signal?: AbortSignal;
}

/** What a tool runner returns: the output text or blocks, or a whole result with `isError`. */
export type AnthropicToolOutput = AnthropicToolResult['content'] | Omit<AnthropicToolResult, 'toolUseId'>;

/** Options of {@link AnthropicConversation.run}. */
export interface AnthropicRunOptions extends AnthropicSendOptions {
  /** Runs one tool call. A thrown error becomes an error result (`is_error: true`) with the error's message. */
  runTool: (call: Anthropic.ToolUseBlockParam) => AnthropicToolOutput | Promise<AnthropicToolOutput>;
  /** Most model calls before `run` returns even if the model still calls tools. Default 25. */
  maxSteps?: number;
}

/**
 * An Anthropic Messages conversation that stays inside the context window. It holds the full history in the
 * SDK's own shape and a working context (what the next request carries). Before each request it compacts the
 * context when the compactor's trigger fires; it sends the request with the real SDK client, appends the
 * answer, and records the reported input tokens (cache reads and writes included) so the next count is exact
 * for what was sent. When the API refuses a request as too long, it compacts with the `overflow` trigger and
 * retries once; a second refusal throws `ContextOverflowError`. Other SDK errors are thrown unchanged.
 *
 * Messages given to it are copied, never changed; the messages it holds are frozen.
 */
export class AnthropicConversation {
  /** The compactor that decides and compacts; its counter is anchored on the reported usage. */
  readonly compactor: Compactor;
  private readonly client: AnthropicConversationClient;
  private readonly defaults: AnthropicConversationRequest;
  private readonly converterOptions: ToAnthropicRequestOptions;
  private readonly loop: ConversationLoop<
    Anthropic.MessageCreateParamsNonStreaming,
    Anthropic.Message,
    number
  >;
  private readonly system: AnthropicMessagesRequest['system'];
  private readonly fullHistory: Anthropic.MessageParam[] = [];
  /** How many core messages the last history message converted to (the next conversion skips them). */
  private lastConvertedLength = 0;

  constructor(settings: AnthropicConversationSettings) {
    this.compactor = resolveAnthropicConversationCompactor(settings);
    this.loop = new ConversationLoop({
      compactor: this.compactor,
      sessionId: settings.sessionId,
      parseContextOverflow: parseAnthropicContextOverflow,
      toCompactionError: (error) => toAnthropicCompactionError(error),
    });
    this.client = settings.client;
    this.defaults = frozenCopy(settings.request);
    this.converterOptions =
      settings.firstUserText === undefined ? {} : { firstUserText: settings.firstUserText };
    if (settings.system !== undefined) {
      this.system = frozenCopy(settings.system);
      this.loop.append(fromAnthropicRequest({ system: this.system, messages: [] }));
    }
    for (const message of settings.messages ?? []) this.append(message);
  }

  /** The whole conversation, never compacted: every message sent and received, in the SDK's shape. */
  get history(): Anthropic.MessageParam[] {
    return [...this.fullHistory];
  }

  /** The full history as core messages (the system prompt first), for stores, reports and tests. */
  get coreHistory(): Message[] {
    return this.loop.history;
  }

  /**
   * The working context in the SDK's shape: `system` and `messages` as the next request would carry them
   * (before any compaction that request triggers).
   */
  get context(): AnthropicMessagesRequest {
    return toAnthropicRequest(this.loop.context, this.converterOptions);
  }

  /** The working context as core messages. */
  get coreContext(): Message[] {
    return this.loop.context;
  }

  /** Every compaction of this conversation, oldest first. */
  get compactions(): CompactionEvent[] {
    return this.loop.compactions;
  }

  /** The tool calls of the last answer that have no result yet (answer them with {@link addToolResults}). */
  get pendingToolCalls(): Anthropic.ToolUseBlockParam[] {
    return toolUsesOf(this.fullHistory.at(-1));
  }

  /** Subscribes to `compaction`, `request`, `overflow` or `response`; returns the unsubscribe function. */
  on<Name extends keyof AnthropicConversationEvents>(
    name: Name,
    listener: (payload: AnthropicConversationEvents[Name]) => void,
  ): () => void {
    return this.loop.on(name, listener);
  }

  /** Appends a user turn without sending it. Throws `InvalidMessagesError` if tool calls are still pending. */
  addUserMessage(input: AnthropicUserInput): void {
    const message = userMessageOf(input);
    assertAnswersToolCalls(this.fullHistory.at(-1), message);
    this.append(message);
  }

  /**
   * Appends the results of the pending tool calls as one user turn, without sending it. Every pending call
   * must be answered, and every result must answer one; otherwise `InvalidMessagesError` is thrown.
   */
  addToolResults(results: readonly AnthropicToolResult[]): void {
    this.addUserMessage(toolResultBlocks(results));
  }

  /**
   * Appends `input` as a user turn (when given), compacts if the trigger fires, sends the request and appends
   * the answer, which it returns. Call it without input after {@link addToolResults}.
   */
  async send(input?: AnthropicUserInput, options: AnthropicSendOptions = {}): Promise<Anthropic.Message> {
    if (input !== undefined) this.addUserMessage(input);
    else if (this.pendingToolCalls.length > 0) {
      throw new InvalidMessagesError({
        issues: [{ index: -1, path: 'content', message: 'answer the pending tool calls before sending' }],
      });
    }
    const exchange = await this.loop.exchange({
      body: (messages) =>
        ({
          ...this.defaults,
          ...options.request,
          ...toAnthropicRequest(messages, this.converterOptions),
        }) as Anthropic.MessageCreateParamsNonStreaming,
      send: async (body, signal) => {
        const response = await this.create(body, signal);
        // Anthropic reports cached input apart; the total is what the context window held.
        const inputTokens =
          response.usage.input_tokens +
          (response.usage.cache_read_input_tokens ?? 0) +
          (response.usage.cache_creation_input_tokens ?? 0);
        return { response, inputTokens };
      },
      accept: ({ response }) =>
        this.append({ role: 'assistant', content: response.content as Anthropic.ContentBlockParam[] }),
      signal: options.signal,
    });
    return exchange.response;
  }

  /**
   * The whole agent loop: sends `input`, runs the tools the model calls with `runTool` (calls of one answer
   * run concurrently), sends their results, and repeats until the model stops calling tools or `maxSteps`
   * model calls were made. Returns the last answer.
   */
  async run(input: AnthropicUserInput | undefined, options: AnthropicRunOptions): Promise<Anthropic.Message> {
    const { runTool, maxSteps = 25, ...sendOptions } = options;
    let response = await this.send(input, sendOptions);
    for (let step = 1; step < maxSteps && this.pendingToolCalls.length > 0; step++) {
      const results = await Promise.all(
        this.pendingToolCalls.map(async (call) => ({ toolUseId: call.id, ...(await runOne(runTool, call)) })),
      );
      this.addToolResults(results);
      response = await this.send(undefined, sendOptions);
    }
    return response;
  }

  /** Compacts the working context now (trigger `manual`), with optional instructions for the strategy. */
  compact(options: { instructions?: string; signal?: AbortSignal } = {}): Promise<CompactionResult> {
    return this.loop.compact(options);
  }

  private create(
    body: Anthropic.MessageCreateParamsNonStreaming,
    signal: AbortSignal | undefined,
  ): PromiseLike<Anthropic.Message> {
    const create = this.client.messages.create as unknown as (
      body: Anthropic.MessageCreateParamsNonStreaming,
      options?: { signal: AbortSignal },
    ) => PromiseLike<Anthropic.Message>;
    return create.call(this.client.messages, body, signal === undefined ? undefined : { signal });
  }

  /**
   * Adds a message to the history and the working context. It is converted to core messages once, with the
   * message before it as context (which turn it continues, the names of the calls its results answer).
   */
  private append(input: Anthropic.MessageParam): void {
    const message = frozenCopy(input);
    const previous = this.fullHistory.at(-1);
    const core = fromAnthropicRequest({
      messages: previous === undefined ? [message] : [previous, message],
    }).slice(previous === undefined ? 0 : this.lastConvertedLength);
    this.fullHistory.push(message);
    this.lastConvertedLength = core.length;
    this.loop.append(core);
  }
}

/** Creates an {@link AnthropicConversation}. Throws `InvalidOptionsError` for invalid compaction settings. */
export function createAnthropicConversation(settings: AnthropicConversationSettings): AnthropicConversation {
  return new AnthropicConversation(settings);
}

async function runOne(
  runTool: AnthropicRunOptions['runTool'],
  call: Anthropic.ToolUseBlockParam,
): Promise<Omit<AnthropicToolResult, 'toolUseId'>> {
  try {
    const output = await runTool(call);
    return typeof output === 'string' || Array.isArray(output) ? { content: output } : output;
  } catch (error) {
    return { content: error instanceof Error ? error.message : String(error), isError: true };
  }
}
