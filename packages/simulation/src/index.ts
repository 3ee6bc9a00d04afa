// Replaying a conversation as an agent loop with compaction, and billing it under a price model.

export { billRun, type RunBill, type SentRequest } from './billing.js';
export {
  createMeteredProvider,
  type MeteredCall,
  type MeteredProvider,
} from './metered-provider.js';
export { plotSimulation } from './plot-svg.js';
export { type BilledTokens, costOf, defaultPriceModel, type PriceModel } from './price-model.js';
export {
  defaultSecondsBetweenCalls,
  type SimulatedCompaction,
  type SimulateOptions,
  type SimulationResult,
  type SimulationStep,
  type SimulationTotals,
  simulate,
} from './simulate.js';
