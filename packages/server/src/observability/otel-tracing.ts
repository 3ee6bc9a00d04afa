import type { IncomingMessage } from 'node:http';
import { compactionTelemetry } from '@compaction/opentelemetry';
import {
  context,
  defaultTextMapGetter,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createOtlpMeterProvider } from './otel-metrics.js';
import type { RequestTracing, TracingSettings } from './request-tracing.js';

/** The tracing of `startTracing`, over the OpenTelemetry SDK (loaded only through it). */
export async function createOtelTracing(settings: TracingSettings): Promise<RequestTracing> {
  const resource = resourceFromAttributes({ 'service.name': settings.serviceName });
  const provider = new BasicTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.url }))],
  });
  const propagator = new W3CTraceContextPropagator();
  const contextManager = new AsyncLocalStorageContextManager().enable();
  // Each registration fails (false) when the process already has one, the application's: it is kept.
  const registered = {
    provider: trace.setGlobalTracerProvider(provider),
    context: context.setGlobalContextManager(contextManager),
    propagator: propagation.setGlobalPropagator(propagator),
  };
  const tracer = provider.getTracer('@compaction/server');
  const meterProvider =
    settings.metricsUrl === undefined
      ? undefined
      : createOtlpMeterProvider(resource, settings.metricsUrl, settings.metricIntervalMs);
  // Its spans and metrics go to these providers even when the application registered its own as the global ones.
  const compactorObserver = await compactionTelemetry({
    tracerProvider: provider,
    ...(meterProvider === undefined ? {} : { meterProvider }),
  });
  return {
    compactorObservers: [compactorObserver],
    startRequest(request: IncomingMessage, { method, route, requestId }) {
      const parent = propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
      const span = tracer.startSpan(
        `${method} ${route}`,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': method,
            'http.route': route,
            'compaction.request_id': requestId,
          },
        },
        parent,
      );
      const active = trace.setSpan(parent, span);
      return {
        run: (work) => (registered.context ? context.with(active, work) : contextManager.with(active, work)),
        end: (status) => {
          const code = Number(status);
          if (Number.isInteger(code)) span.setAttribute('http.response.status_code', code);
          if (!Number.isInteger(code) || code >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    flush: async () => {
      await Promise.all([provider.forceFlush(), meterProvider?.forceFlush()]);
    },
    shutdown: async () => {
      // Both are stopped, the metrics sent, even when the spans cannot be.
      const [spans, metrics] = await Promise.allSettled([provider.shutdown(), meterProvider?.shutdown()]);
      for (const outcome of [spans, metrics]) if (outcome.status === 'rejected') throw outcome.reason;
      if (registered.provider) trace.disable();
      if (registered.context) context.disable();
      if (registered.propagator) propagation.disable();
      contextManager.disable();
    },
  };
}
