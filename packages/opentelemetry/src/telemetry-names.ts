/** The names of the spans, attributes and metrics, in one place for the code, the tests and dashboards. */

/** Span names; a model call's span is named after the GenAI conventions: `chat <model>`. */
export const spanNames = {
  prepare: 'compaction.prepare',
  recover: 'compaction.recover',
  compaction: 'compaction.compact',
  strategy: 'compaction.strategy',
  stage: 'compaction.stage',
} as const;

/** Attribute names. Every value is a name, a number or a flag: never message text, keys or headers. */
export const attributeNames = {
  sessionId: 'compaction.session.id',
  trigger: 'compaction.trigger',
  strategy: 'compaction.strategy',
  outcome: 'compaction.outcome',
  compacted: 'compaction.compacted',
  reason: 'compaction.reason',
  round: 'compaction.round',
  fallback: 'compaction.fallback',
  tokensBefore: 'compaction.tokens.before',
  tokensAfter: 'compaction.tokens.after',
  tokensTarget: 'compaction.tokens.target',
  tokensLimit: 'compaction.tokens.limit',
  messagesBefore: 'compaction.messages.before',
  messagesAfter: 'compaction.messages.after',
  messagesRemoved: 'compaction.messages.removed',
  archivedItems: 'compaction.archived.items',
  stage: 'compaction.stage',
  stageIndex: 'compaction.stage.index',
  errorType: 'error.type',
  operation: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  system: 'gen_ai.system',
  requestModel: 'gen_ai.request.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  finishReasons: 'gen_ai.response.finish_reasons',
} as const;

/** Metric names. */
export const metricNames = {
  compactions: 'compaction.compactions',
  tokensSaved: 'compaction.tokens.saved',
  duration: 'compaction.duration',
  fallbacks: 'compaction.fallbacks',
  overflowRetries: 'compaction.overflow.retries',
} as const;

/** The instrumentation scope the tracer and meter are named after. */
export const instrumentationScope = '@compaction/opentelemetry';
