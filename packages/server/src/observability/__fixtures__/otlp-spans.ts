import type { RecordedRequest } from '@compaction/testing/loopback-server';

/** One span as OTLP/HTTP JSON carries it, its attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status?: { code?: number };
  serviceName: unknown;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan extends Omit<ReceivedSpan, 'attributes' | 'serviceName'> {
  attributes?: OtlpAttribute[];
}
interface OtlpTraces {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
  }>;
}

const plainValue = (value: OtlpValue) =>
  value.stringValue ??
  (value.intValue === undefined ? undefined : Number(value.intValue)) ??
  value.boolValue ??
  value.doubleValue;

const attributesOf = (attributes: OtlpAttribute[] = []) =>
  Object.fromEntries(attributes.map((attribute) => [attribute.key, plainValue(attribute.value)]));

/** Every span of the OTLP/HTTP JSON export requests a receiver recorded. */
export function receivedSpans(requests: readonly RecordedRequest[]): ReceivedSpan[] {
  return requests.flatMap((request) =>
    ((request.body as OtlpTraces).resourceSpans ?? []).flatMap((resourceSpan) => {
      const serviceName = attributesOf(resourceSpan.resource?.attributes)['service.name'];
      return (resourceSpan.scopeSpans ?? []).flatMap((scope) =>
        (scope.spans ?? []).map((span) => ({
          ...span,
          attributes: attributesOf(span.attributes),
          serviceName,
        })),
      );
    }),
  );
}
