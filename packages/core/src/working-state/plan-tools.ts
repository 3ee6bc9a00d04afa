/**
 * The tools coding agents keep their plan or todo list with, named exactly as each agent sends them. Each
 * call carries the whole list, so the latest call is the agent's current plan: Claude Code's `TodoWrite`,
 * Codex's `update_plan`, opencode's `todowrite`, and the `write_todos` of Gemini CLI and of LangChain's todo
 * list middleware (which Deep Agents includes).
 */
export const defaultPlanTools: readonly string[] = Object.freeze([
  'TodoWrite',
  'update_plan',
  'todowrite',
  'write_todos',
]);

/** Options of `findPlanState` and `pinPlanState`. */
export interface PlanStateOptions {
  /** The names of the tools whose calls hold the plan, compared exactly. Default `defaultPlanTools`. */
  tools?: readonly string[];
}
