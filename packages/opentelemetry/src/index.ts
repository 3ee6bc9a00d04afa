// OpenTelemetry for the Compactor: one observer, spans and metrics; the API is an optional peer, no SDK.
export { type CompactionTelemetryOptions, compactionTelemetry } from './compaction-telemetry.js';
export type { OpenTelemetryApi } from './load-opentelemetry-api.js';
export { attributeNames, instrumentationScope, metricNames, spanNames } from './telemetry-names.js';
