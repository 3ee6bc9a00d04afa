import {
  CompactionAbortedError,
  type CompactionEvent,
  type CompactionResult,
  type Compactor,
  InvalidMessagesError,
  InvalidOptionsError,
  type Message,
  withCompactionMetadata,
} from '@compaction/core';
import { frozenCopy } from '@compaction/provider-utils';
import { checkAnswers } from './check-answers.js';
import { type CompactToolInLoop, compactToolOf } from './compact-tool-in-loop.js';
import type { AgentConversationTypes, ConversationAdapter } from './conversation-adapter.js';
import { ConversationLoop } from './conversation-loop.js';
import type { ConversationLoopEvents } from './conversation-loop-events.js';
import {
  type NoteBeforeCompaction,
  notePrefix,
  type ResolvedNoteBeforeCompaction,
  resolveNoteBeforeCompaction,
  runNoteTurn,
} from './note-before-compaction.js';
import { RecallInLoop } from './recall-in-loop.js';

/** Options of one {@link AgentConversation.send}. */
export interface ConversationSendOptions<Request> {
  /** Fields that replace the conversation's request defaults for this call only. */
  request?: Partial<Request>;
  /** Aborts the compaction and the request. */
  signal?: AbortSignal;
  /** Pins the user turn given as input: every compaction keeps it verbatim. Default false. */
  pinned?: boolean;
}

/** Options of {@link AgentConversation.run}. */
export interface ConversationRunOptions<Types extends AgentConversationTypes>
  extends ConversationSendOptions<Types['request']> {
  /**
   * Runs one tool call. A thrown error becomes an error result carrying the error's message. Calls of the
   * `recall` and `compact` tools the conversation offers never reach it: the conversation answers them.
   */
  runTool: (call: Types['toolCall']) => Types['toolOutput'] | Promise<Types['toolOutput']>;
  /** Most model calls before `run` returns even if the model still calls tools. Default 25. */
  maxSteps?: number;
}

/** Settings of an {@link AgentConversation}. */
export interface AgentConversationSettings<Types extends AgentConversationTypes> {
  /** Decides and compacts; its counter is anchored on the usage the API reports. */
  compactor: Compactor;
  /** The session compactions are recorded under. Default: the compactor's (`default`). */
  sessionId?: string | undefined;
  /** How this API's SDK shapes are converted, sent and checked. */
  adapter: ConversationAdapter<Types>;
  /** Core messages the context starts with that are not items of the history (a separate system prompt). */
  preamble?: readonly Message[];
  /**
   * Offers the model a `compact` tool (optional `instructions`: what to keep, what phase ended). The
   * conversation answers its calls at once and, before the next model call, runs a forced manual compaction
   * with those instructions (even under the target). Needs an adapter with a tool wire. Default false.
   */
  compactTool?: boolean;
  /**
   * Before each automatic compaction, one extra model call asks the model to write what it must keep; its
   * answer joins the history as a pinned user turn, so the compaction keeps it. `true` for the defaults. A
   * failed or timed-out note turn is a `note` event and the compaction goes on. Off by default.
   */
  beforeCompaction?: boolean | NoteBeforeCompaction;
}

/**
 * An agent conversation over one API's SDK that stays inside the context window, for every API alike: the
 * full history in the SDK's shape, each group of items converted to core messages once (so their identity,
 * and the memoized counts, stay stable), a working context that compactions replace, proactive compaction
 * before each request, the reported usage fed back to the counter, compaction and retry after an
 * overflow refusal, and the tool loop. The API's {@link ConversationAdapter} supplies only the conversions,
 * the SDK call and the checks of its shapes.
 *
 * Items given to it are copied, never changed; the items it holds are frozen.
 */
export class AgentConversation<Types extends AgentConversationTypes> {
  /** The compactor that decides and compacts; its counter is anchored on the reported usage. */
  readonly compactor: Compactor;
  private readonly adapter: ConversationAdapter<Types>;
  private readonly loop: ConversationLoop<Types['body'], Types['response'], Types['inputTokens']>;
  private readonly items: Types['item'][] = [];
  private readonly recall: RecallInLoop<Types> | undefined;
  private readonly compactTool: CompactToolInLoop<Types> | undefined;
  private readonly notes: ResolvedNoteBeforeCompaction | undefined;
  private readonly sessionId: string | undefined;

  constructor(settings: AgentConversationSettings<Types>) {
    this.compactor = settings.compactor;
    this.adapter = settings.adapter;
    this.loop = new ConversationLoop({
      compactor: settings.compactor,
      sessionId: settings.sessionId,
      parseContextOverflow: settings.adapter.parseContextOverflow,
      toCompactionError: settings.adapter.toCompactionError,
      isNativeCompactionPart: settings.adapter.isNativeCompactionPart,
    });
    if (settings.preamble !== undefined) this.loop.append(settings.preamble);
    // A compactor that archives (its `archive` setting): the conversation offers the model the `recall` tool
    // over this session's archive and answers its calls, when the adapter has a recall wire.
    const recallStore = settings.compactor.archiveStore;
    const wire = settings.adapter.recall;
    if (recallStore !== undefined && wire !== undefined) {
      const sessionId = settings.sessionId ?? 'default';
      this.recall = new RecallInLoop({ store: recallStore, sessionId, adapter: this.adapter, wire });
      // A request tool named `recall` is refused now, before anything is sent.
      this.recall.withTool(this.adapter.body([], undefined));
    }
    this.sessionId = settings.sessionId;
    this.compactTool = compactToolOf(settings.compactTool === true, settings.adapter);
    // A request tool named `compact` is refused now, before anything is sent.
    this.compactTool?.withTool(this.adapter.body([], undefined));
    this.notes = resolveNoteBeforeCompaction(settings.beforeCompaction);
    if (this.notes !== undefined && settings.adapter.note === undefined) {
      const message = 'this conversation cannot make a note turn: its adapter has no note wire';
      throw new InvalidOptionsError({
        subject: 'conversation',
        issues: [{ path: 'beforeCompaction', message }],
      });
    }
  }

  /** The whole conversation, never compacted: every item sent and received, in the SDK's shape. */
  get history(): Types['item'][] {
    return [...this.items];
  }

  /** The full history as core messages, for stores, reports and tests. */
  get coreHistory(): Message[] {
    return this.loop.history;
  }

  /** The working context in the SDK's shape, as the next request would carry it (before any compaction). */
  get context(): Types['context'] {
    return this.adapter.context(this.loop.context);
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
  get pendingToolCalls(): Types['toolCall'][] {
    return this.adapter.pendingToolCalls(this.items);
  }

  /** Subscribes to `compaction`, `request`, `overflow`, `response` or `note`; returns the unsubscribe function. */
  on<Name extends keyof ConversationLoopEvents<Types['body'], Types['response'], Types['inputTokens']>>(
    name: Name,
    listener: (
      payload: ConversationLoopEvents<Types['body'], Types['response'], Types['inputTokens']>[Name],
    ) => void,
  ): () => void {
    return this.loop.on(name, listener);
  }

  /**
   * Appends a user turn without sending it; `pinned: true` pins it (every compaction keeps it verbatim).
   * Throws `InvalidMessagesError` if it leaves tool calls unanswered.
   */
  addUserMessage(input: Types['userInput'], options: { pinned?: boolean } = {}): void {
    this.appendChecked(this.adapter.userItems(input), options.pinned === true);
  }

  /**
   * Appends results of pending tool calls, without sending them. Every result must answer a pending call;
   * otherwise `InvalidMessagesError` is thrown and nothing is appended.
   */
  addToolResults(results: readonly Types['toolResult'][]): void {
    this.appendChecked(this.adapter.resultItems(results));
  }

  /**
   * Appends `input` as a user turn (when given), compacts if the trigger fires, sends the request and appends
   * the answer, which it returns. Call it without input after {@link addToolResults}.
   */
  async send(
    input?: Types['userInput'],
    options: ConversationSendOptions<Types['request']> = {},
  ): Promise<Types['response']> {
    if (input !== undefined) this.addUserMessage(input, { pinned: options.pinned === true });
    else if (this.pendingToolCalls.length > 0) {
      const { call, callsPath } = this.adapter.vocabulary;
      throw new InvalidMessagesError({
        issues: [{ index: -1, path: callsPath, message: `answer the pending ${call}s before sending` }],
      });
    }
    await this.compactOnRequest(options.signal);
    await this.noteBeforeCompaction(options);
    const exchange = await this.loop.exchange({
      body: (messages) => this.withOwnTools(this.adapter.body(messages, options.request)),
      send: (body, signal) => this.adapter.send(body, signal),
      accept: ({ items }) => this.append(items),
      signal: options.signal,
    });
    return exchange.response;
  }

  /**
   * The whole agent loop: sends `input`, runs the tools the model calls with `runTool` (calls of one answer
   * run concurrently), sends their results, and repeats until the model stops calling tools or `maxSteps`
   * model calls were made. Returns the last answer.
   */
  async run(
    input: Types['userInput'] | undefined,
    options: ConversationRunOptions<Types>,
  ): Promise<Types['response']> {
    const { runTool, maxSteps = 25, ...sendOptions } = options;
    let response = await this.send(input, sendOptions);
    for (let step = 1; step < maxSteps && this.pendingToolCalls.length > 0; step++) {
      const results = await Promise.all(this.pendingToolCalls.map((call) => this.answer(runTool, call)));
      this.addToolResults(results);
      response = await this.send(undefined, sendOptions);
    }
    return response;
  }

  /**
   * The results of the pending calls of the `recall` tool (offered when the compactor archives), for
   * {@link addToolResults} with the results of the other calls. {@link run} answers them by itself.
   */
  async recallResults(): Promise<Types['toolResult'][]> {
    const { recall } = this;
    if (recall === undefined) return [];
    const calls = this.pendingToolCalls.filter((call) => recall.answers(call));
    return Promise.all(calls.map((call) => this.settle(call, () => recall.resultOf(call))));
  }

  /**
   * The results of the pending calls of the `compact` tool (offered with `compactTool`), for
   * {@link addToolResults} with the results of the other calls; the next `send` compacts first. {@link run}
   * answers them by itself.
   */
  compactResults(): Types['toolResult'][] {
    const { compactTool } = this;
    if (compactTool === undefined) return [];
    return this.pendingToolCalls
      .filter((call) => compactTool.answers(call))
      .map((call) => compactTool.resultOf(call));
  }

  /**
   * Compacts the working context now (trigger `manual`), with optional instructions for the strategy; with
   * `force`, even when it is under the target.
   */
  compact(
    options: { instructions?: string; signal?: AbortSignal; force?: boolean } = {},
  ): Promise<CompactionResult> {
    return this.loop.compact(options);
  }

  /**
   * Adds a group of items to the history and the working context, converted to core messages once, with
   * the history before them as context. Tool results are named after their calls, wherever the calls are.
   */
  protected append(input: readonly Types['item'][], pinned = false): void {
    if (input.length === 0) return;
    const items = input.map((item) => frozenCopy(item));
    const converted = this.adapter.toCore(items, this.items);
    // The pin is core's mark: the SDK's items have no room for it, and requests never carry it.
    const core = pinned
      ? converted.map((message) =>
          message.role === 'user' ? withCompactionMetadata(message, { pinned: true }) : message,
        )
      : converted;
    this.items.push(...items);
    this.loop.append(core);
  }

  /** Appends items a caller gave after checking they answer the pending calls as the API requires. */
  private appendChecked(items: Types['item'][], pinned = false): void {
    const pending = this.pendingToolCalls.map((call) => this.adapter.callId(call));
    checkAnswers(pending, this.adapter.answersOf(items), this.adapter.vocabulary);
    this.append(items, pinned);
  }

  /** A body with the recall and compact tools added when the conversation offers them. */
  private withOwnTools(body: Types['body']): Types['body'] {
    const withRecall = this.recall === undefined ? body : this.recall.withTool(body);
    return this.compactTool === undefined ? withRecall : this.compactTool.withTool(withRecall);
  }

  /**
   * The compaction the model asked for with the `compact` tool, forced. A failure leaves the history as it
   * is (the compactor's `error` event reports it): the next request compacts as usual if it must.
   */
  private async compactOnRequest(signal: AbortSignal | undefined): Promise<void> {
    const request = this.compactTool?.takeRequest();
    if (request === undefined) return;
    await this.loop
      .compact({ ...request, force: true, ...(signal === undefined ? {} : { signal }) })
      .catch((error: unknown) => {
        if (CompactionAbortedError.isInstance(error) || signal?.aborted) throw error;
      });
  }

  /**
   * With `beforeCompaction`, when the next request compacts automatically (and still fits the limit): the
   * note turn, and its note appended pinned. Its failure is a `note` event; only the caller's abort throws.
   */
  private async noteBeforeCompaction(options: ConversationSendOptions<Types['request']>): Promise<void> {
    const { notes } = this;
    const wire = this.adapter.note;
    if (notes === undefined || wire === undefined) return;
    const messages = this.loop.context;
    const check = this.compactor.check(
      messages,
      this.sessionId === undefined ? {} : { sessionId: this.sessionId },
    );
    if (!check.shouldCompact || check.reason === 'over-limit') return;
    let text: string;
    try {
      text = await runNoteTurn({
        adapter: this.adapter,
        wire,
        settings: notes,
        messages,
        request: options.request,
        withOwnTools: (body) => this.withOwnTools(body),
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      this.loop.reportNote({ status: 'failed', error });
      return;
    }
    if (text === '') {
      this.loop.reportNote({ status: 'empty' });
      return;
    }
    this.appendChecked(this.adapter.userItems(`${notePrefix}${text}` as Types['userInput']), true);
    this.loop.reportNote({ status: 'written', text });
  }

  /** The result of one call: the conversation's own for a recall call, `runTool`'s for any other. */
  private answer(runTool: ConversationRunOptions<Types>['runTool'], call: Types['toolCall']) {
    const { recall, compactTool } = this;
    if (recall?.answers(call) === true) return this.settle(call, () => recall.resultOf(call));
    if (compactTool?.answers(call) === true) return this.settle(call, async () => compactTool.resultOf(call));
    return this.settle(call, async () => this.adapter.resultOf(call, await runTool(call)));
  }

  /** The result `produce` makes; an error it throws becomes an error result with the error's message. */
  private async settle(
    call: Types['toolCall'],
    produce: () => Promise<Types['toolResult']>,
  ): Promise<Types['toolResult']> {
    try {
      return await produce();
    } catch (error) {
      return this.adapter.failureOf(call, error instanceof Error ? error.message : String(error));
    }
  }
}
