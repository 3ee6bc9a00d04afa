import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import type { Resource } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';

/** How often the metrics are sent by default, in ms: the OpenTelemetry default. */
export const defaultMetricIntervalMs = 60_000;

/**
 * A meter provider whose metrics are sent to `url` over OTLP/HTTP (JSON) every `intervalMs`, and once more when
 * it is flushed or shut down. Not registered as the global one: it is handed to the Compactors' observer.
 */
export function createOtlpMeterProvider(
  resource: Resource,
  url: string,
  intervalMs = defaultMetricIntervalMs,
): MeterProvider {
  const reader = new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter({ url }),
    exportIntervalMillis: intervalMs,
    // An export may not take longer than the interval (the SDK's rule); 30 s at most, its default.
    exportTimeoutMillis: Math.min(intervalMs, 30_000),
  });
  return new MeterProvider({ resource, readers: [reader] });
}
