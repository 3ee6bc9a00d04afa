export type { StageReport } from './compaction-stages.js';
export {
  type BackgroundFlags,
  checkBackground,
  defaultBackgroundConcurrency,
  readBackgroundFlags,
} from './config/background-flags.js';
export {
  createInstalledStrategyRegistry,
  defaultStrategy,
  proxyStrategyDefaults,
  type RegistryLocation,
  type StrategyDefaults,
} from './config/installed-strategies.js';
export { resolveProviderFlags } from './config/provider-flags.js';
export { type CompactionFlags, type CompactionSettings, resolveSettings } from './config/resolve-settings.js';
export { parseTokenCount } from './config/token-amount.js';
export { cliTriggerPolicies, replayTriggerPolicies } from './config/trigger-policies.js';
export { CliError, type CliErrorReason, cliErrorOf, usageError } from './errors/cli-error.js';
export { exitCodes } from './errors/exit-codes.js';
export { TargetUnreachableError, type UnreachableBudget } from './errors/target-unreachable-error.js';
export type { ListenAddress } from './listen-on.js';
export {
  defaultOtlpEndpoint,
  type ObservabilityFlagValues,
  observabilityFlagOptions,
  readObservabilityFlags,
  tracesEndpoint,
  withBareOtelFlag,
} from './observability/observability-flags.js';
export type { ObservabilitySettings } from './observability/observability-settings.js';
export type {
  RequestTracing,
  TracedRequest,
  TracingSettings,
} from './observability/request-tracing.js';
export type { LogFormat } from './observability/service-log.js';
export type { ProxyObserver } from './observability/service-observability.js';
export { startTracing } from './observability/start-tracing.js';
export {
  type ArchivedItemSummary,
  type CompactionSummary,
  summarizeCompaction,
} from './output/compaction-summary.js';
export { type FileIdentity, fileIdentity, isUnchanged } from './output/file-identity.js';
export {
  formatChange,
  formatCount,
  formatDollars,
  formatDuration,
  formatTable,
} from './output/format-numbers.js';
export { changedFileError, OutputFileError, type OutputFileProblem } from './output/output-file-error.js';
export { type AtomicWriteOptions, writeFileAtomically } from './output/write-file-atomically.js';
export { apiKeyVariables, createProvider, type ProviderSettings } from './providers/create-provider.js';
export { type CompactionProxy, createCompactionProxy } from './proxy/compaction-proxy.js';
export type { PrefixUseSummary } from './proxy/prefix-use.js';
export type { ArchivedConversation, ProxyArchiveStatus } from './proxy/proxy-archive.js';
export { createProxyServer, listenCompactionProxy, type ProxyServer } from './proxy/proxy-server.js';
export {
  type CompactionProxySettings,
  defaultProxyMaxBodyBytes,
  type ProxyStatus,
  statusPath,
} from './proxy/proxy-settings.js';
export type { LearnedLimit } from './proxy/upstream-limits.js';
export { parseUpstreams, type UpstreamProvider, type Upstreams } from './proxy/upstreams.js';
export {
  type CompactionReport,
  type CompactMessagesOptions,
  compactMessages,
  contextWindowOf,
  defaultContextWindow,
  providerOf,
} from './run-compaction.js';
export {
  type CompactionServer,
  createCompactionHttpServer,
  listenCompactionServer,
} from './serve/compaction-http-server.js';
export { type CompactionService, createCompactionServer } from './serve/compaction-server.js';
export type { CompactionServerSettings, ShutdownResult } from './serve/compaction-server-settings.js';
export { parseDecimalInteger } from './serve/decimal-integer.js';
export { type OpenApiExamples, openApiDocument } from './serve/openapi-document.js';
export { parseByteSize } from './serve/parse-byte-size.js';
export { parseDuration } from './serve/parse-duration.js';
export { ProviderPool } from './serve/provider-pool.js';
export {
  type CheckedRequestConfig,
  checkRequestConfig,
  createRequestPolicy,
  type RequestAllowances,
  type RequestPolicy,
  verifyRequestPolicy,
} from './serve/request-policy.js';
export { type RetentionSettings, readRetentionFlags } from './serve/retention-sweep.js';
export { defaultMaxBodyBytes, serverDefaults } from './serve/server-defaults.js';
export {
  describeStoreLocation,
  openSessionStore,
  type PostgresStoreOptions,
  type StoreLocation,
  storeLocationOf,
} from './serve/session-store.js';
