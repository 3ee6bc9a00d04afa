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
import type { RequestTracing, TracingSettings } from './request-tracing.js';

/** The tracing of `startTracing`, over the OpenTelemetry SDK (loaded only through it). */
export async function createOtelTracing(settings: TracingSettings): Promise<RequestTracing> {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
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
  // Its spans go to this provider even when the application registered its own as the global one.
  const compactorObserver = await compactionTelemetry({ tracerProvider: provider });
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
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      await provider.shutdown();
      if (registered.provider) trace.disable();
      if (registered.context) context.disable();
      if (registered.propagator) propagation.disable();
      contextManager.disable();
    },
  };
}
