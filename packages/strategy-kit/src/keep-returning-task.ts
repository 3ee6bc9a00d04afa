import {
  BudgetUnreachableError,
  type CompactionOutput,
  type Message,
  type TokenCounter,
} from '@compaction/core';
import { countTurn, type TurnPlan } from './turn-plan.js';

/**
 * Runs `compact` on `plan`, the plan of a strategy that may drop the original task; when the result is over
 * `target`, runs it again with the task protected and returns the smaller result. Dropping the task is not
 * always possible: when a pinned model message would then stand first, keeping a user turn first brings the
 * task back (see `keepUserTurnFirst`), after the strategy counted it as removed. A `BudgetUnreachableError`
 * from the better attempt is thrown.
 */
export function keepTaskWhenItReturns(
  messages: readonly Message[],
  plan: TurnPlan,
  counter: TokenCounter,
  target: number,
  compact: (plan: TurnPlan) => CompactionOutput,
): CompactionOutput {
  const attempt = (attemptPlan: TurnPlan): CompactionOutput | BudgetUnreachableError => {
    try {
      return compact(attemptPlan);
    } catch (error) {
      if (BudgetUnreachableError.isInstance(error)) return error;
      throw error;
    }
  };
  const tokensOf = (result: CompactionOutput | BudgetUnreachableError) =>
    BudgetUnreachableError.isInstance(result) ? result.best : counter.estimate(result.messages);
  let result = attempt(plan);
  const { taskTurn } = plan;
  if (tokensOf(result) > target && taskTurn !== -1 && plan.protectedTurns[taskTurn] === 0) {
    const protectedTurns = plan.protectedTurns.slice();
    const tokens = plan.tokens.slice();
    protectedTurns[taskTurn] = 1;
    tokens[taskTurn] = countTurn(messages, plan.turns[taskTurn]!, counter);
    const again = attempt({ ...plan, protectedTurns, tokens });
    if (tokensOf(again) < tokensOf(result)) result = again;
  }
  if (BudgetUnreachableError.isInstance(result)) throw result;
  return result;
}
