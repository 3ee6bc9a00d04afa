import {
  BudgetUnreachableError,
  CompactionError,
  type CompactionStrategy,
  createTokenCounter,
  type Message,
  type TokenCounter,
  type TokenEstimator,
  verifyCompaction,
} from '@compaction/core';
import { planTurns, wholeTurnSlack } from '@compaction/strategy-kit';
import fc from 'fast-check';
import { defaultConformanceRuns } from './conformance.js';
import { deepFreeze } from './deep-freeze.js';
import {
  type HugeResultConversationSettings,
  hugeResultConversationArbitrary,
} from './huge-result-arbitrary.js';
import { type FloorOf, protectedTokens } from './protected-tokens.js';

/**
 * The default number of generated conversations of the target-fill property: 200 (each may hold a result of
 * megabytes), or `$CONFORMANCE_RUNS` when that is fewer, as on the repository's Node 22 compatibility pass.
 */
export const defaultTargetFillRuns = Math.min(200, defaultConformanceRuns);

export interface TargetFillSettings {
  /** The strategy under test, or a function that makes it. */
  strategy: CompactionStrategy | (() => CompactionStrategy | Promise<CompactionStrategy>);
  /** Generated conversations. Default {@link defaultTargetFillRuns}. */
  numRuns?: number;
  /** The fast-check seed, for reproducing a failure. */
  seed?: number;
  /** With `seed`, the path a failure reported: replays that counterexample first. */
  path?: string;
  /** The estimator the counter uses; defaults to core's default. */
  estimator?: TokenEstimator;
  /**
   * Tokens the strategy can never get below on a history: the targets at or above it are the reachable
   * ones. Default {@link protectedTokens}, right for strategies that may remove every unprotected turn.
   */
  floor?: FloorOf;
  /**
   * The least a result may count on a reachable target. Default: the target less the allowance for cause
   * ({@link allowedShortfall}). A strategy that ends below its target by design passes its own (for
   * summarization: its share of recent turns, less the allowance).
   */
  lowerBound?: (run: TargetFillRun) => number;
  /**
   * Whether the strategy is asked to archive what it removes (`input.archive`): its markers and placeholders
   * then name recall handles, are longer, and must still be paid for. The floor is called with `{ archive }`.
   */
  archive?: boolean;
  /** The sizes of the huge result the generated histories hold. */
  hugeResult?: HugeResultConversationSettings;
}

/** One run of the target-fill property, as {@link TargetFillSettings.lowerBound} sees it. */
export interface TargetFillRun {
  /** The history compacted. */
  messages: readonly Message[];
  /** Its tokens. */
  total: number;
  target: number;
  /** What the strategy can never get below ({@link TargetFillSettings.floor}). */
  floor: number;
  /** How far below the target the result may end with cause ({@link allowedShortfall}). */
  allowance: number;
}

/** What a turn keeps at least when its tool results are shortened to nothing: its calls, text and notes. */
function unshortenableTokens(messages: readonly Message[], counter: TokenCounter): number {
  let tokens = 0;
  for (const message of messages) {
    if (message.role !== 'tool') tokens += counter.countMessage(message);
    else {
      const emptied: Message = {
        ...message,
        content: message.content.map((part) => ({ ...part, output: noteOfNothing })),
      };
      tokens += counter.countMessage(emptied);
    }
  }
  return tokens;
}

/** The longest note a shortened result keeps when nothing else of it fits. */
const noteOfNothing = '\n[... 99999999 characters omitted ...]\n';
/** What one gap may cost in the room a strategy sets aside for its marker and leaves unused. */
const markerTolerance = 16;

/**
 * The rule this property checks, for one run: on a reachable target (at or above the floor) the strategy
 * returns a valid history at or under the limit, and not far below the target without cause. The causes,
 * all of them: the history's own size (nothing to remove), the turns that must stay whole, and one turn at the
 * boundary of what was kept, counted at what it keeps at least once its tool results are shortened to
 * nothing (its calls, text and reasoning); beyond those, it may leave `wholeTurnSlack(target)` unused, and
 * a few tokens per run of removed messages (the room for its marker). On an unreachable target it may throw
 * only `BudgetUnreachableError`, naming that target and a best over the limit.
 *
 * Returns a description of the first failure, or undefined when the property held.
 */
export async function checkTargetFill(settings: TargetFillSettings): Promise<string | undefined> {
  const strategy = typeof settings.strategy === 'function' ? await settings.strategy() : settings.strategy;
  const floorOf = settings.floor ?? protectedTokens;
  const caseArbitrary = fc.record({
    messages: hugeResultConversationArbitrary(settings.hugeResult),
    targetShare: fc.double({ min: 0.02, max: 0.95, noNaN: true }),
    strictLimit: fc.boolean(),
    limitShare: fc.double({ min: 0, max: 1, noNaN: true }),
  });
  const details = await fc.check(
    fc.asyncProperty(caseArbitrary, async ({ messages, targetShare, strictLimit, limitShare }) => {
      const counter = createTokenCounter(settings.estimator);
      const total = counter.estimate(messages);
      const target = Math.floor(total * targetShare);
      if (total <= target || target < 1) return true;
      const limit = strictLimit ? target : target + Math.floor((total - target) * limitShare);
      const archive = settings.archive === true;
      const floor = archive ? floorOf(messages, counter, { archive }) : floorOf(messages, counter);
      const input = deepFreeze(structuredClone(messages)) as Message[];
      let after: Message[];
      try {
        after = (
          await strategy.compact({
            messages: input,
            counter,
            budget: { limit, target },
            trigger: 'auto',
            round: 1,
            ...(archive ? { archive } : {}),
          })
        ).messages;
      } catch (error) {
        if (!CompactionError.isInstance(error)) throw error;
        if (floor <= target)
          throw new Error(`threw on a reachable target of ${target} (floor ${floor}): ${error.message}`);
        if (!BudgetUnreachableError.isInstance(error))
          throw new Error(`threw ${error.code}: ${error.message}`);
        if (error.target !== target || !(error.best > limit)) {
          throw new Error(
            `BudgetUnreachableError with target ${error.target} and best ${error.best}: ${error.message}`,
          );
        }
        return true;
      }
      const violations = verifyCompaction({ before: input, after, counter, limit });
      if (violations.length > 0) {
        throw new Error(
          `broke ${violations.map((violation) => `${violation.rule} (${violation.message})`).join(', ')}`,
        );
      }
      const tokens = counter.estimate(after);
      if (floor > target || tokens >= target) return true;
      const allowance = allowedShortfall(input, after, counter, target);
      const least =
        settings.lowerBound?.({ messages: input, total, target, floor, allowance }) ?? target - allowance;
      if (tokens < least) {
        throw new Error(
          `${tokens} tokens against a target of ${target} (limit ${limit}): under the least allowed, ${least} ` +
            `(an allowance of ${allowance} for cause)`,
        );
      }
      return true;
    }),
    {
      numRuns: settings.numRuns ?? defaultTargetFillRuns,
      ...(settings.seed === undefined ? {} : { seed: settings.seed }),
      ...(settings.path === undefined ? {} : { path: settings.path, endOnFailure: true }),
    },
  );
  if (!details.failed) return undefined;
  const reason =
    details.errorInstance instanceof Error ? details.errorInstance.message : 'the property returned false';
  // Long texts are abbreviated: the huge result alone would fill the report.
  const example = JSON.stringify(details.counterexample, (_, value: unknown) =>
    typeof value === 'string' && value.length > 120
      ? `${value.slice(0, 60)}... (${value.length} characters)`
      : value,
  );
  return `${reason}\n(seed ${details.seed}, path "${details.counterexamplePath}")\nCounterexample: ${example}`;
}

/**
 * How far below its target a compaction of `before` into `after` may end, with cause: `wholeTurnSlack(target)`,
 * plus the calls, text and reasoning of the largest unprotected turn it removed or changed (what that turn keeps
 * at least once its tool results are shortened to nothing), plus 16 tokens per run of removed messages.
 */
export function allowedShortfall(
  before: readonly Message[],
  after: readonly Message[],
  counter: TokenCounter,
  target: number,
): number {
  const plan = planTurns(before, counter);
  const unchanged = new Set(after);
  let boundary = 0;
  plan.turns.forEach((turn, turnIndex) => {
    if (plan.protectedTurns[turnIndex] === 1) return;
    const messages = before.slice(turn.start, turn.end);
    if (messages.every((message) => unchanged.has(message))) return;
    boundary = Math.max(boundary, unshortenableTokens(messages, counter));
  });
  let gaps = 0;
  before.forEach((message, index) => {
    if (!unchanged.has(message) && (index === 0 || unchanged.has(before[index - 1]!))) gaps++;
  });
  return wholeTurnSlack(target) + boundary + markerTolerance * (gaps + 1);
}
