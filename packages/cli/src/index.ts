export { ChatSession, type ChatTurn } from './chat/chat-session.js';
export { runCli } from './cli.js';
export { type CliIO, processIO } from './cli-io.js';
export type { StageReport } from './compaction-stages.js';
export {
  createCliRegistry,
  defaultStrategy,
  type RegistryLocation,
  type StrategyDefaults,
} from './config/installed-strategies.js';
export { type CompactionFlags, type CompactionSettings, resolveSettings } from './config/resolve-settings.js';
export { countTokens, type TokenBreakdown } from './count-tokens.js';
export { CliError, type CliErrorReason } from './errors/cli-error.js';
export { exitCodes } from './errors/exit-codes.js';
export { TargetUnreachableError, type UnreachableBudget } from './errors/target-unreachable-error.js';
export type { ProviderSettings } from './providers/create-provider.js';
export { type CompactionReport, type CompactMessagesOptions, compactMessages } from './run-compaction.js';
export {
  type CompactionServer,
  type CompactionServerSettings,
  createCompactionServer,
  type ShutdownResult,
} from './serve/compaction-server.js';
export { type OpenApiExamples, openApiDocument } from './serve/openapi-document.js';
export {
  type CheckedRequestConfig,
  checkRequestConfig,
  createRequestPolicy,
  type RequestAllowances,
  type RequestPolicy,
} from './serve/request-policy.js';
export type { RetentionSettings } from './serve/retention-sweep.js';
export { defaultMaxBodyBytes, serverDefaults } from './serve/server-defaults.js';
export {
  createMeteredProvider,
  type MeteredCall,
  type MeteredProvider,
} from './simulate/metered-provider.js';
export { plotSimulation } from './simulate/plot-svg.js';
export { type BilledTokens, costOf, defaultPriceModel, type PriceModel } from './simulate/price-model.js';
export {
  type SimulatedCompaction,
  type SimulateOptions,
  type SimulationResult,
  type SimulationStep,
  type SimulationTotals,
  simulate,
} from './simulate/simulate.js';
