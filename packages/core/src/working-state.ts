// The `@compaction/core/working-state` entry: recognising what an agent keeps working from (its plan or todo
// list) so that compaction keeps it. The Compactor applies it itself (`planTools`); integrations that pin
// before compacting on their own, and the conformance suite, use it directly.
export { findPlanState } from './working-state/find-plan-state.js';
export { pinPlanState } from './working-state/pin-plan-state.js';
export { defaultPlanTools, type PlanStateOptions } from './working-state/plan-tools.js';
