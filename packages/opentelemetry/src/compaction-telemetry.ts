import type {
  CompactionOutput,
  CompactionResult,
  CompactorObserver,
  CompactorStep,
  CompactorStepRunner,
  GenerateResult,
  StrategyAttempt,
} from '@compaction/core';
import type { Attributes, Context, MeterProvider, Span, Tracer, TracerProvider } from '@opentelemetry/api';
import { compactionMetrics } from './compaction-metrics.js';
import { errorType } from './error-type.js';
import { loadOpenTelemetryApi, type OpenTelemetryApi } from './load-opentelemetry-api.js';
import { instrumentationScope, attributeNames as names, spanNames } from './telemetry-names.js';

/** Settings of {@link compactionTelemetry}. */
export interface CompactionTelemetryOptions {
  /** Where spans go. Default: the global tracer provider, a no-op until an SDK registers one. */
  tracerProvider?: TracerProvider;
  /** Where metrics go. Default: the global meter provider, read at each record, a no-op until one is set. */
  meterProvider?: MeterProvider;
  /** The version the tracer and meter are given, such as the application's. */
  version?: string;
  /** Loads the OpenTelemetry API; for tests. Default: imports `@opentelemetry/api`. */
  loadApi?: () => Promise<OpenTelemetryApi | undefined>;
}

/** What one compaction's spans share: its inner steps fill in what only they know. */
interface CompactionRecord {
  trigger: string;
  target?: number;
  removed?: number;
}

/**
 * An observer for `createCompactor({ observers: [...] })` that traces each step as an OpenTelemetry span and
 * records the compaction metrics. Spans and metrics go to the given providers, else to the global ones: with
 * no SDK registered, nothing is recorded. When `@opentelemetry/api` is not installed, the observer does
 * nothing. Attributes are names, counts and flags: never message text, keys or headers; a failure's span
 * has the status ERROR and its `error.type` (a code or class name), never its message.
 */
export async function compactionTelemetry(
  options: CompactionTelemetryOptions = {},
): Promise<CompactorObserver> {
  const api = await (options.loadApi ?? loadOpenTelemetryApi)();
  if (api === undefined) return { observe: passThrough };
  const tracerProvider = options.tracerProvider ?? api.trace.getTracerProvider();
  const tracer = tracerProvider.getTracer(instrumentationScope, options.version);
  const meterProvider = () => options.meterProvider ?? api.metrics.getMeterProvider();
  const metrics = compactionMetrics(meterProvider, options.version, api.createNoopMeter());
  const telemetry = { api, tracer, tracingOff: tracingOffIn(api, tracerProvider), metrics };
  return { observe: runnerIn(telemetry, undefined, undefined) };
}

/**
 * Whether `provider` is the API's global proxy with no SDK behind it yet, read at each call: registering an SDK
 * (`trace.setGlobalTracerProvider`) gives the proxy its delegate, and its tracer's spans record from then on.
 * Any other provider (one given, or registered globally by another copy of the API) is never off.
 */
function tracingOffIn(api: OpenTelemetryApi, provider: TracerProvider): () => boolean {
  if (!(provider instanceof api.ProxyTracerProvider)) return () => false;
  // What a proxy with no delegate answers: the API's no-op provider.
  const none = new api.ProxyTracerProvider().getDelegate();
  return () => provider.getDelegate() === none;
}

/** Runs every step as it is, recording nothing. */
const passThrough: CompactorStepRunner = (_step, run) => run(passThrough);

type Telemetry = {
  api: OpenTelemetryApi;
  tracer: Tracer;
  /** Whether the tracer is the API's no-op one for now (no SDK registered): its spans would not record. */
  tracingOff: () => boolean;
  metrics: ReturnType<typeof compactionMetrics>;
};

/** The runner of steps inside `parent` (the active context at the outermost step), and of one compaction. */
function runnerIn(
  telemetry: Telemetry,
  parent: Context | undefined,
  compaction: CompactionRecord | undefined,
): CompactorStepRunner {
  const { api, tracer } = telemetry;
  // Not async itself: the path with nothing to record adds no promise of its own (prepare runs at every call).
  return (step, run) => {
    // No SDK registered, for spans or metrics: the steps run as they are, without even a no-op span.
    if (parent === undefined && telemetry.tracingOff() && telemetry.metrics.off()) return run(passThrough);
    const outer = parent ?? api.context.active();
    const span = startSpan(tracer, api, outer, step);
    // No SDK registered (or this trace not sampled, and no meter): the steps run as they are, at no cost.
    if (parent === undefined && !span.isRecording() && telemetry.metrics.off()) {
      span.end();
      return run(passThrough);
    }
    return traced(telemetry, { step, span, outer, compaction }, run);
  };
}

/** Runs a step inside its span, then ends the span and records the metrics, whatever happened. */
async function traced<Result>(
  telemetry: Telemetry,
  started: { step: CompactorStep; span: Span; outer: Context; compaction: CompactionRecord | undefined },
  run: (observe: CompactorStepRunner) => Promise<Result>,
): Promise<Result> {
  const { api } = telemetry;
  const { step, span, outer } = started;
  const inner = api.trace.setSpan(outer, span);
  const record = step.kind === 'compaction' ? { trigger: step.trigger } : started.compaction;
  if (step.kind === 'strategy' && record !== undefined) record.target = step.target;
  const start = performance.now();
  let result: Result | undefined;
  let failure: { error: unknown } | undefined;
  try {
    // The step runs in its span's context, so the provider SDK's own spans (HTTP) nest inside it too.
    result = await api.context.with(inner, () => run(runnerIn(telemetry, inner, record)));
    return result;
  } catch (error) {
    failure = { error };
    throw error;
  } finally {
    const seconds = (performance.now() - start) / 1000;
    try {
      finish(telemetry, { step, span, record, result, failure, seconds });
    } catch (error) {
      // Telemetry never changes what the Compactor returns or throws; OpenTelemetry's own logger hears of it.
      api.diag.error('@compaction/opentelemetry could not record a step', errorType(error));
    }
  }
}

function startSpan(tracer: Tracer, api: OpenTelemetryApi, parent: Context, step: CompactorStep): Span {
  switch (step.kind) {
    case 'prepare':
    case 'recover':
      return tracer.startSpan(
        spanNames[step.kind],
        { attributes: { [names.sessionId]: step.sessionId } },
        parent,
      );
    case 'compaction': {
      const attributes = {
        [names.sessionId]: step.sessionId,
        [names.trigger]: step.trigger,
        [names.strategy]: step.strategy,
      };
      return tracer.startSpan(spanNames.compaction, { attributes }, parent);
    }
    case 'strategy': {
      const attributes = {
        [names.strategy]: step.name,
        [names.fallback]: step.fallback,
        [names.round]: step.round,
        [names.tokensBefore]: step.tokens,
        [names.tokensTarget]: step.target,
        [names.tokensLimit]: step.limit,
        [names.messagesBefore]: step.messages.length,
      };
      return tracer.startSpan(spanNames.strategy, { attributes }, parent);
    }
    case 'stage': {
      const attributes = { [names.stage]: step.name, [names.stageIndex]: step.index };
      return tracer.startSpan(spanNames.stage, { attributes }, parent);
    }
    case 'generate': {
      const attributes = {
        [names.operation]: 'chat',
        [names.providerName]: step.provider,
        [names.system]: step.provider,
        [names.requestModel]: step.model,
      };
      return tracer.startSpan(`chat ${step.model}`, { attributes, kind: api.SpanKind.CLIENT }, parent);
    }
  }
}

interface Finished {
  step: CompactorStep;
  span: Span;
  record: CompactionRecord | undefined;
  result: unknown;
  failure: { error: unknown } | undefined;
  seconds: number;
}

/** Ends a step's span with what its result says, and records the metrics of a compaction or a fallback. */
function finish(telemetry: Telemetry, finished: Finished): void {
  const { step, span, record, result, failure, seconds } = finished;
  // The span first: it ends even when the meter fails.
  if (failure !== undefined) {
    span.setAttribute(names.errorType, errorType(failure.error));
    span.setStatus({ code: telemetry.api.SpanStatusCode.ERROR });
  } else if (span.isRecording()) {
    span.setAttributes(attributesOfResult(step, result, record));
  }
  span.end();
  if (step.kind === 'compaction') {
    const measured = {
      strategy: step.strategy,
      trigger: step.trigger,
      seconds,
      failed: failure !== undefined,
    };
    telemetry.metrics.compaction({ ...measured, ...(failure ? {} : { result: result as CompactionResult }) });
  }
  if (step.kind === 'strategy' && step.fallback) {
    telemetry.metrics.fallback(step.name, record?.trigger ?? 'manual', failure !== undefined);
  }
}

/** The attributes a step's result adds to its span: counts, names and flags only. */
function attributesOfResult(
  step: CompactorStep,
  result: unknown,
  record: CompactionRecord | undefined,
): Attributes {
  switch (step.kind) {
    case 'prepare':
    case 'recover':
    case 'compaction':
      return compactionAttributes(
        result as CompactionResult,
        step.kind === 'compaction' ? record : undefined,
      );
    case 'strategy': {
      const { output, tokens } = result as StrategyAttempt;
      const kept = new Set(output.messages);
      const removed = step.messages.reduce((count, message) => count + (kept.has(message) ? 0 : 1), 0);
      if (record !== undefined) record.removed = removed;
      return {
        [names.tokensAfter]: tokens,
        [names.messagesAfter]: output.messages.length,
        [names.messagesRemoved]: removed,
        [names.archivedItems]: output.archived?.length ?? 0,
      };
    }
    case 'stage':
      return { [names.messagesAfter]: (result as CompactionOutput).messages.length };
    case 'generate': {
      const { usage, finishReason } = result as GenerateResult;
      const tokens = usage
        ? { [names.inputTokens]: usage.inputTokens, [names.outputTokens]: usage.outputTokens }
        : {};
      return { ...tokens, [names.finishReasons]: [finishReason] };
    }
  }
}

function compactionAttributes(result: CompactionResult, record: CompactionRecord | undefined): Attributes {
  const { event } = result;
  const outcome = {
    [names.compacted]: result.compacted,
    ...(result.skipped ? { [names.reason]: result.skipped } : {}),
  };
  if (event === undefined) return outcome;
  return {
    ...outcome,
    [names.strategy]: event.strategy,
    [names.round]: event.round,
    [names.fallback]: event.usedFallback,
    [names.tokensBefore]: event.tokensBefore,
    [names.tokensAfter]: event.tokensAfter,
    [names.messagesBefore]: event.messagesBefore,
    [names.messagesAfter]: event.messagesAfter,
    [names.archivedItems]: result.archived?.length ?? 0,
    ...(record?.target === undefined ? {} : { [names.tokensTarget]: record.target }),
    ...(record?.removed === undefined ? {} : { [names.messagesRemoved]: record.removed }),
  };
}
