import type { JSONObject } from '../json.js';
import type { Message } from '../messages/message.js';
import type { TokenCounter } from './token-counter-v1.js';

/** Why a compaction runs: proactively before a call, at the user's request, or after the provider refused. */
export type CompactionTrigger = 'auto' | 'manual' | 'overflow';

/** The token budget a strategy works to. */
export interface CompactionBudgetV1 {
  /** The hard maximum: the result must count at most this many tokens. */
  limit: number;
  /** Where to aim: well below the trigger, so compaction does not fire again at the next step. */
  target: number;
}

/** Everything a strategy is given. Treat all of it as read-only. */
export interface CompactionInputV1 {
  /** The history to compact. Never mutate it or its messages. */
  messages: readonly Message[];
  /** The shared, memoized token counter. Use it rather than an estimator of your own. */
  counter: TokenCounter;
  budget: CompactionBudgetV1;
  trigger: CompactionTrigger;
  /** Extra instructions, such as the text of a manual `/compact ...`. */
  instructions?: string;
  /** The compaction round this run will be (1 for the first compaction of a session). */
  round: number;
  sessionId?: string;
  abortSignal?: AbortSignal;
  /**
   * When true, what the strategy removes or shortens stays within the model's reach: list it in
   * {@link CompactionOutputV1.archived} and name its handle in the placeholder, marker or summary that
   * replaces it, so the model can fetch it again with the `recall` tool. The Compactor stores the items.
   */
  archive?: boolean;
  /**
   * Given when the Compactor has observers (tracing, metrics): run each stage and each model call through it,
   * so they are timed inside the compaction they belong to. Absent otherwise: then run them directly.
   */
  observe?: StrategyStepRunnerV1;
}

/** A part of a strategy's work that observers see on its own: a pipeline's stage, a call to a model. */
export type StrategyStepV1 =
  | { kind: 'stage'; name: string; index: number }
  | { kind: 'generate'; provider: string; model: string };

/**
 * Runs `run` as one step and returns (or throws) what it does. `run` is handed the runner of the step's own
 * steps (a stage's model calls), so each one is seen inside the step it belongs to.
 */
export type StrategyStepRunnerV1 = <Result>(
  step: StrategyStepV1,
  run: (observe: StrategyStepRunnerV1) => Promise<Result>,
) => Promise<Result>;

/** Text a strategy removed or shortened, kept so the model can fetch it again through the `recall` tool. */
export interface ArchivedItemV1 {
  /**
   * Short handle (letters, digits, `-` or `_`, at most 32), named in the text that replaced the item. Derive
   * it from the text (strategy-kit's `archiveItem`), so every stage of a pipeline names one text alike.
   */
  handle: string;
  /** What it held, in a few words, for models and people: `bash output`, `turns 3-7`. */
  label: string;
  /** The text exactly as it was before it was removed or shortened. */
  text: string;
}

/** What a strategy returns. */
export interface CompactionOutputV1 {
  /**
   * The new history. Messages kept unchanged must be the same objects as in the input; messages created or
   * changed must carry `metadata.compaction.kind` (see `withCompactionMetadata`).
   */
  messages: Message[];
  /** The text of a summary, when the strategy wrote one. */
  summary?: string;
  /** Strategy-specific details for reports and events (stages run, counts removed...). */
  details?: JSONObject;
  /** With `input.archive`: what it removed or shortened, each under the handle its replacement names. */
  archived?: ArchivedItemV1[];
}

/**
 * A compaction strategy: a pure function from an old history to a new, shorter one.
 * It must keep every rule of the architecture (tool pairing, system and pinned messages, newest user request,
 * determinism, no mutation); `@compaction/testing`'s conformance suite checks them.
 */
export interface CompactionStrategyV1 {
  readonly specificationVersion: 'v1';
  /** The registered name, such as `pruning`. */
  readonly name: string;
  compact(input: CompactionInputV1): Promise<CompactionOutputV1>;
}

export type CompactionStrategy = CompactionStrategyV1;
export type CompactionInput = CompactionInputV1;
export type CompactionOutput = CompactionOutputV1;
export type CompactionBudget = CompactionBudgetV1;
export type ArchivedItem = ArchivedItemV1;
export type StrategyStep = StrategyStepV1;
export type StrategyStepRunner = StrategyStepRunnerV1;
