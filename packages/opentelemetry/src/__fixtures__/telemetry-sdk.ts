import type { Attributes } from '@opentelemetry/api';
import { type DataPoint, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** Collects on demand: no timer to stop. */
class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** One recorded metric point: a counter's sum, or a histogram's count and sum. */
export interface RecordedPoint {
  name: string;
  unit: string;
  attributes: Attributes;
  value: number | { count: number; sum: number };
}

/** The real OpenTelemetry SDK with in-memory exporters: what an application registers, kept in memory. */
export function telemetrySdk() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    async points(): Promise<RecordedPoint[]> {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics.flatMap((scope) =>
        scope.metrics.flatMap((metric) =>
          (metric.dataPoints as DataPoint<unknown>[]).map((point) => ({
            name: metric.descriptor.name,
            unit: metric.descriptor.unit,
            attributes: point.attributes,
            value: pointValue(point.value),
          })),
        ),
      );
    },
    async shutdown(): Promise<void> {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}

function pointValue(value: unknown): RecordedPoint['value'] {
  if (typeof value === 'number') return value;
  const { count, sum } = value as { count: number; sum?: number };
  return { count, sum: sum ?? 0 };
}

/** The span's parent span id, whichever field this SDK version keeps it in. */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
