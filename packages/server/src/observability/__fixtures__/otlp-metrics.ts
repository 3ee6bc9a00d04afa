import type { RecordedRequest } from '@compaction/testing/loopback-server';

/** One data point of a metric as OTLP/HTTP JSON carries it, its attributes flattened. */
export interface ReceivedPoint {
  /** The metric's name. */
  name: string;
  attributes: Record<string, unknown>;
  /** A sum's or gauge's value; a histogram's count. */
  value: number;
  serviceName: unknown;
}

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
}
interface OtlpPoint {
  attributes?: OtlpAttribute[];
  asInt?: string | number;
  asDouble?: number;
  count?: string | number;
}
interface OtlpMetric {
  name: string;
  sum?: { dataPoints?: OtlpPoint[] };
  gauge?: { dataPoints?: OtlpPoint[] };
  histogram?: { dataPoints?: OtlpPoint[] };
}
interface OtlpMetrics {
  resourceMetrics?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeMetrics?: Array<{ metrics?: OtlpMetric[] }>;
  }>;
}

const attributesOf = (attributes: OtlpAttribute[] = []) =>
  Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ??
        (value.intValue === undefined ? undefined : Number(value.intValue)) ??
        value.boolValue ??
        value.doubleValue,
    ]),
  );

const pointValue = (point: OtlpPoint) => Number(point.asInt ?? point.asDouble ?? point.count ?? Number.NaN);

/** Every data point of one OTLP/HTTP JSON metrics export request a receiver recorded. */
export function receivedPoints(request: RecordedRequest): ReceivedPoint[] {
  return ((request.body as OtlpMetrics).resourceMetrics ?? []).flatMap((resourceMetric) => {
    const serviceName = attributesOf(resourceMetric.resource?.attributes)['service.name'];
    return (resourceMetric.scopeMetrics ?? []).flatMap((scope) =>
      (scope.metrics ?? []).flatMap(
        (metric) =>
          (metric.sum ?? metric.gauge ?? metric.histogram)?.dataPoints?.map((point) => ({
            name: metric.name,
            attributes: attributesOf(point.attributes),
            value: pointValue(point),
            serviceName,
          })) ?? [],
      ),
    );
  });
}
