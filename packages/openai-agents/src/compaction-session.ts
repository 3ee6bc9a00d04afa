import { type Compactor, createCompactor, type Message } from '@compaction/core';
import type { AgentInputItem, Model, Session } from '@openai/agents';
import { fromAgentItems, toAgentItems } from './agent-items.js';
import { compactingModel } from './compacting-model.js';
import type { CompactionSessionSettings } from './compaction-session-settings.js';

/** A compaction made inside a run: the items it covered (by {@link matchKey}) and the items standing for them. */
interface StandIn {
  covered: readonly string[];
  replacement: readonly AgentInputItem[];
}

/** Prepared model input: the items to send and the core messages they came from (for usage anchoring). */
export interface PreparedItems {
  /** The items to send or store. */
  items: AgentInputItem[];
  /** The core messages the items stand for, as the compactor counted them. */
  messages: Message[];
  /** Whether the items differ from those given (compacted now, or an earlier compaction applied). */
  compacted: boolean;
}

/**
 * An Agents SDK `Session` that keeps a conversation inside the model's context window. It stores the items in
 * memory and, before each run (when the runner reads the history), compacts them with the compactor's
 * strategy once they cross the budget's trigger: the compacted items replace the ones they stand for, and the
 * compaction is recorded (and what it removed archived, with `archive: true`) in the compactor's store.
 *
 * A run that calls tools many times grows inside the run, where the runner no longer reads the session: give
 * the agent {@link CompactionSession.wrapModel}'s model to compact before every model call of the run too.
 *
 * ```ts
 * const session = new CompactionSession({ strategy, budget: { contextWindow: 128_000 } });
 * await run(agent, 'Fix the failing test', { session });
 * ```
 */
export class CompactionSession implements Session {
  /** The compactor that compacts the items: subscribe to its events with `session.compactor.on('end', ...)`. */
  readonly compactor: Compactor;
  /** The session's id, under which compactions are recorded (events, store, `recall`). */
  readonly sessionId: string;
  #items: AgentInputItem[];
  #standIn: StandIn | undefined;
  /**
   * The messages last converted or compacted, with the JSON of what their items convert to: a message whose
   * items convert to the same JSON is that message again, so the token counter (which anchors on message
   * identity) and the compaction marks core keeps in metadata carry over from call to call.
   */
  #known: { messages: readonly Message[]; keys: readonly string[] } = { messages: [], keys: [] };

  /** Creates the session over a compactor, or creates the compactor from the settings of `createCompactor`. */
  constructor(settings: CompactionSessionSettings) {
    const { sessionId, items, ...rest } = settings;
    this.compactor = 'compactor' in rest ? rest.compactor : createCompactor(rest);
    this.sessionId = sessionId ?? globalThis.crypto.randomUUID();
    this.#items = (items ?? []).map((item) => structuredClone(item));
  }

  /** The session's id: the one given, or a random UUID made when the session was created. */
  async getSessionId(): Promise<string> {
    return this.sessionId;
  }

  /**
   * The history the next run starts from: compacted first when it crossed the trigger. With `limit`, the
   * newest `limit` items. The items are copies: changing them changes nothing stored.
   */
  async getItems(limit?: number): Promise<AgentInputItem[]> {
    const prepared = await this.prepare(this.#items);
    if (prepared.compacted) this.#items = prepared.items;
    const items = limit === undefined ? this.#items : limit <= 0 ? [] : this.#items.slice(-limit);
    return items.map((item) => structuredClone(item));
  }

  /** Appends copies of the items a run produced (or that the caller adds) to the stored history. */
  async addItems(items: AgentInputItem[]): Promise<void> {
    this.#items = [...this.#items, ...items.map((item) => structuredClone(item))];
  }

  /** Removes the newest stored item and returns it, or `undefined` when the history is empty. */
  async popItem(): Promise<AgentInputItem | undefined> {
    const last = this.#items.at(-1);
    this.#items = this.#items.slice(0, -1);
    return last;
  }

  /**
   * Forgets every stored item and any compaction made inside a run. The compaction records in the store are
   * kept: they are the store's, under the same session id.
   */
  async clearSession(): Promise<void> {
    this.#items = [];
    this.#standIn = undefined;
    this.#known = { messages: [], keys: [] };
  }

  /**
   * The stored items as they are, not compacted now (copies). After a compaction, these are the compacted
   * items: what was removed is in the compactor's store.
   */
  storedItems(): AgentInputItem[] {
    return this.#items.map((item) => structuredClone(item));
  }

  /**
   * Wraps a model (an `OpenAIResponsesModel`, an `OpenAIChatCompletionsModel`, any `Model`) so that every
   * call of a run that uses this session is compacted first, and reports its usage to anchor the count.
   */
  wrapModel(model: Model): Model {
    return compactingModel(model, this);
  }

  /**
   * Compacts `items` when they cross the trigger. A compaction made earlier inside a run stands in for the
   * items it covered when `items` start with them, so it is not made again.
   */
  async prepare(items: readonly AgentInputItem[]): Promise<PreparedItems> {
    const current = this.current(items);
    const result = await this.compactor.prepare(current.messages, { sessionId: this.sessionId });
    if (!result.compacted) return current;
    return { items: this.adopt(items, result.messages), messages: result.messages, compacted: true };
  }

  /**
   * The items to send for `items` without compacting now (an earlier compaction applied when they start with
   * the items it covered), and the core messages they stand for.
   */
  current(items: readonly AgentInputItem[]): PreparedItems {
    const substituted = this.#substitute(items);
    const messages = this.#reuseKnown(fromAgentItems(substituted));
    return { items: [...substituted], messages, compacted: substituted !== items };
  }

  /**
   * Takes a compaction of `covered` (its result, `messages`): returns the items to send, and remembers it so
   * later calls of the run and the next run reuse it.
   */
  adopt(covered: readonly AgentInputItem[], messages: readonly Message[]): AgentInputItem[] {
    const items = toAgentItems(messages);
    const keys = fromAgentItems(items).map((message) => JSON.stringify(message));
    if (keys.length === messages.length) this.#known = { messages, keys };
    this.#standIn = { covered: covered.map(matchKey), replacement: items };
    return items;
  }

  #reuseKnown(fresh: readonly Message[]): Message[] {
    const known = this.#known;
    const keys = fresh.map((message) => JSON.stringify(message));
    const messages = fresh.map((message, index) =>
      keys[index] === known.keys[index] ? known.messages[index]! : message,
    );
    this.#known = { messages, keys };
    return messages;
  }

  #substitute(items: readonly AgentInputItem[]): readonly AgentInputItem[] {
    const standIn = this.#standIn;
    if (standIn === undefined || standIn.covered.length > items.length) return items;
    const matches = standIn.covered.every((key, index) => matchKey(items[index]!) === key);
    if (!matches) return items;
    return [...standIn.replacement, ...items.slice(standIn.covered.length)];
  }
}

/**
 * What an item is compared by when the runner hands back items a compaction covered: the runner saves tool
 * calls and their results without the ids the model gave them (in the item and in its `providerData`), so
 * those ids are left out.
 */
function matchKey(item: AgentInputItem): string {
  return JSON.stringify(item, (_key, value: unknown) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !('id' in value)) return value;
    const { type } = value as { type?: unknown };
    if (type !== 'function_call' && type !== 'function_call_result') return value;
    const { id: _id, ...rest } = value as Record<string, unknown>;
    return rest;
  });
}
