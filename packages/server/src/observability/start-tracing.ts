import type { RequestTracing, TracingSettings } from './request-tracing.js';

/**
 * Starts exporting request spans over OTLP/HTTP (JSON). The OpenTelemetry SDK is imported here, on the first
 * call, so a service started without tracing never loads it. The SDK is registered as the process's global
 * tracer provider, context manager and propagator when none is yet, so that spans started through the
 * OpenTelemetry API during a request (the Compactor's) become children of the request's span.
 */
export async function startTracing(settings: TracingSettings): Promise<RequestTracing> {
  const { createOtelTracing } = await import('./otel-tracing.js');
  return createOtelTracing(settings);
}
