import type Anthropic from '@anthropic-ai/sdk';
import {
  type CompactionEvent,
  type CompactionResult,
  type Compactor,
  ContextOverflowError,
  InvalidMessagesError,
  type Message,
} from '@compaction/core';
import {
  AnthropicConversationEmitter,
  type AnthropicConversationEvents,
} from './anthropic-conversation-events.js';
import {
  type AnthropicToolResult,
  type AnthropicUserInput,
  assertAnswersToolCalls,
  frozenCopy,
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
 * retries once; a second refusal throws {@link ContextOverflowError}. Other SDK errors are thrown unchanged.
 *
 * Messages given to it are copied, never changed; the messages it holds are frozen.
 */
export class AnthropicConversation {
  /** The compactor that decides and compacts; its counter is anchored on the reported usage. */
  readonly compactor: Compactor;
  private readonly client: AnthropicConversationClient;
  private readonly defaults: AnthropicConversationRequest;
  private readonly sessionId: string | undefined;
  private readonly converterOptions: ToAnthropicRequestOptions;
  private readonly emitter = new AnthropicConversationEmitter();
  private readonly system: AnthropicMessagesRequest['system'];
  private readonly fullHistory: Anthropic.MessageParam[] = [];
  /** The core messages each history message converted to, converted once, so their identity is stable. */
  private readonly converted: Message[][] = [];
  private readonly fullCore: Message[] = [];
  private readonly toolNames = new Map<string, string>();
  private working: Message[] = [];
  private readonly events: CompactionEvent[] = [];
  private steps = 0;

  constructor(settings: AnthropicConversationSettings) {
    this.compactor = resolveAnthropicConversationCompactor(settings);
    this.client = settings.client;
    this.defaults = frozenCopy(settings.request);
    this.sessionId = settings.sessionId;
    this.converterOptions =
      settings.firstUserText === undefined ? {} : { firstUserText: settings.firstUserText };
    if (settings.system !== undefined) {
      this.system = frozenCopy(settings.system);
      const systemMessages = fromAnthropicRequest({ system: this.system, messages: [] });
      this.fullCore.push(...systemMessages);
      this.working.push(...systemMessages);
    }
    for (const message of settings.messages ?? []) this.append(message);
  }

  /** The whole conversation, never compacted: every message sent and received, in the SDK's shape. */
  get history(): Anthropic.MessageParam[] {
    return [...this.fullHistory];
  }

  /** The full history as core messages (the system prompt first), for stores, reports and tests. */
  get coreHistory(): Message[] {
    return [...this.fullCore];
  }

  /**
   * The working context in the SDK's shape: `system` and `messages` as the next request would carry them
   * (before any compaction that request triggers).
   */
  get context(): AnthropicMessagesRequest {
    return toAnthropicRequest(this.working, this.converterOptions);
  }

  /** The working context as core messages. */
  get coreContext(): Message[] {
    return [...this.working];
  }

  /** Every compaction of this conversation, oldest first. */
  get compactions(): CompactionEvent[] {
    return [...this.events];
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
    return this.emitter.on(name, listener);
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
    const step = ++this.steps;
    const signal = options.signal;
    this.adopt(await this.compactor.prepare(this.working, this.compactOptions(signal)), step);

    let sent = this.working;
    let response: Anthropic.Message;
    try {
      response = await this.call(sent, options, step, 1);
    } catch (error) {
      if (!isOverflow(error, signal)) throw error;
      const overflow = this.overflowError(error);
      this.emitter.emit('overflow', { step, error: overflow });
      this.adopt(await this.compactor.recover(this.working, overflow, this.compactOptions(signal)), step);
      sent = this.working;
      try {
        response = await this.call(sent, options, step, 2);
      } catch (retryError) {
        throw isOverflow(retryError, signal) ? toAnthropicCompactionError(retryError) : retryError;
      }
    }

    const inputTokens =
      response.usage.input_tokens +
      (response.usage.cache_read_input_tokens ?? 0) +
      (response.usage.cache_creation_input_tokens ?? 0);
    this.compactor.recordUsage({ messages: sent, inputTokens });
    this.append({ role: 'assistant', content: response.content as Anthropic.ContentBlockParam[] });
    this.emitter.emit('response', { step, response, inputTokens });
    return response;
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
  async compact(options: { instructions?: string; signal?: AbortSignal } = {}): Promise<CompactionResult> {
    const result = await this.compactor.compact(this.working, {
      ...this.compactOptions(options.signal),
      trigger: 'manual',
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    });
    this.adopt(result, this.steps);
    return result;
  }

  private async call(
    messages: Message[],
    options: AnthropicSendOptions,
    step: number,
    attempt: number,
  ): Promise<Anthropic.Message> {
    const body = {
      ...this.defaults,
      ...options.request,
      ...toAnthropicRequest(messages, this.converterOptions),
    } as Anthropic.MessageCreateParamsNonStreaming;
    this.emitter.emit('request', { step, attempt, body });
    const create = this.client.messages.create as unknown as (
      body: Anthropic.MessageCreateParamsNonStreaming,
      options?: { signal: AbortSignal },
    ) => PromiseLike<Anthropic.Message>;
    return create.call(
      this.client.messages,
      body,
      options.signal === undefined ? undefined : { signal: options.signal },
    );
  }

  /**
   * The refusal as a {@link ContextOverflowError}. A refusal that does not say how long the request was is
   * taken to be one token over the window, or over the count when that is larger: the compactor then
   * shrinks its limit and target by how far its count fell short.
   */
  private overflowError(error: unknown): ContextOverflowError {
    const overflow = toAnthropicCompactionError(error) as ContextOverflowError;
    if (overflow.requestTokens !== undefined) return overflow;
    const counted = this.compactor.counter.count(this.working);
    return new ContextOverflowError({
      provider: overflow.provider,
      message: overflow.message,
      cause: error,
      requestTokens: Math.max(this.compactor.budget.contextWindow, counted) + 1,
      ...(overflow.maximumTokens === undefined ? {} : { maximumTokens: overflow.maximumTokens }),
    });
  }

  private compactOptions(signal: AbortSignal | undefined) {
    return {
      ...(this.sessionId === undefined ? {} : { sessionId: this.sessionId }),
      ...(signal === undefined ? {} : { abortSignal: signal }),
    };
  }

  /** Makes a compaction's result the working context. */
  private adopt(result: CompactionResult, step: number): void {
    if (!result.compacted) return;
    this.working = result.messages;
    if (result.event !== undefined) {
      this.events.push(result.event);
      this.emitter.emit('compaction', { step, event: result.event });
    }
  }

  /**
   * Adds a message to the history and the working context. It is converted to core messages once, with the
   * message before it as context (which turn it continues, the names of the calls its results answer).
   */
  private append(input: Anthropic.MessageParam): void {
    const message = frozenCopy(input);
    const previous = this.fullHistory.at(-1);
    const skip = previous === undefined ? 0 : this.converted.at(-1)!.length;
    const core = fromAnthropicRequest({ messages: previous === undefined ? [message] : [previous, message] })
      .slice(skip)
      .map((converted) => this.nameResults(converted));
    for (const block of toolUsesOf(message)) this.toolNames.set(block.id, block.name);
    this.fullHistory.push(message);
    this.converted.push(core);
    this.fullCore.push(...core);
    this.working = [...this.working, ...core];
  }

  /** Names tool results that answer a call older than the message before them. */
  private nameResults(message: Message): Message {
    if (message.role !== 'tool' || message.content.every((part) => part.toolName !== '')) return message;
    return {
      ...message,
      content: message.content.map((part) =>
        part.toolName === '' ? { ...part, toolName: this.toolNames.get(part.toolCallId) ?? '' } : part,
      ),
    };
  }
}

/** Creates an {@link AnthropicConversation}. Throws `InvalidOptionsError` for invalid compaction settings. */
export function createAnthropicConversation(settings: AnthropicConversationSettings): AnthropicConversation {
  return new AnthropicConversation(settings);
}

/** Whether a failed call was refused as too long (and not aborted by the caller). */
function isOverflow(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted !== true && parseAnthropicContextOverflow(error) !== undefined;
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
