import type { Message } from '../messages/message.js';
import type { CompactionOutput, CompactionTrigger, StrategyStep } from '../specs/compaction-strategy-v1.js';

/**
 * A part of the Compactor's work that observers see on its own, outermost first: a `prepare` or `recover`
 * call; a `compaction` (one per compaction that ran, queued ones from when they start); each `strategy`
 * attempt (the fallback's after the strategy's), result checks included; and the steps strategies report
 * (a pipeline's `stage`, a `generate` call to a model).
 */
export type CompactorStep =
  | { kind: 'prepare'; sessionId: string }
  | { kind: 'recover'; sessionId: string }
  | { kind: 'compaction'; sessionId: string; trigger: CompactionTrigger; strategy: string }
  | {
      kind: 'strategy';
      name: string;
      /** Whether this attempt is the fallback's, after the strategy failed. */
      fallback: boolean;
      round: number;
      /** The history it is given, and its tokens; the budget it must meet. */
      messages: readonly Message[];
      tokens: number;
      target: number;
      limit: number;
    }
  | StrategyStep;

/**
 * Runs `run` as one step and returns (or throws) what it does; `run` is handed the runner of the step's own
 * steps. What `run` returns, by kind: `prepare`, `recover` and `compaction`, a `CompactionResult`; `strategy`,
 * a {@link StrategyAttempt}; `stage`, a `CompactionOutput`; `generate`, a `GenerateResult`.
 */
export type CompactorStepRunner = <Result>(
  step: CompactorStep,
  run: (observe: CompactorStepRunner) => Promise<Result>,
) => Promise<Result>;

/**
 * Watches the Compactor's work, step by step, to trace and measure it: a middleware around each step. Its
 * `observe` must call `run` once and return what it returns (throw what it throws): the Compactor's result
 * goes through it. Observers are given in `CompactorSettings.observers`; with none, nothing is built per step.
 */
export interface CompactorObserver {
  observe: CompactorStepRunner;
}

/** What a `strategy` step returns: the strategy's output, checked, and the tokens it counts. */
export interface StrategyAttempt {
  output: CompactionOutput;
  tokens: number;
}
