import {
  getMetricsFromIterator,
  type PromData,
  type PromHistogramData,
  type PromMetrics,
} from 'prom2javascript';

/** A scrape of `/metrics`, read by a Prometheus text parser. */
export interface ScrapedMetrics {
  text: string;
  /** The metrics by name, as the parser read them. */
  metrics: PromMetrics;
  /** The sum of a counter's or gauge's samples whose labels include `labels`. */
  total(name: string, labels?: Record<string, string>): number;
  /** The number of observations of a histogram's series whose labels include `labels`. */
  observations(name: string, labels?: Record<string, string>): number;
  /** Every label value of every sample. */
  labelValues(): string[];
}

const including = (labels: Record<string, string>) => (sample: { labels: Record<string, string> }) =>
  Object.entries(labels).every(([label, value]) => sample.labels[label] === value);

/** Reads `/metrics` of `url` with `headers` (the bearer token) and parses it. */
export async function scrapeMetrics(
  url: string,
  headers: Record<string, string> = {},
): Promise<ScrapedMetrics> {
  const response = await fetch(`${url}/metrics`, { headers });
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/plain; version=0.0.4')) throw new Error(`GET /metrics answered ${type}`);
  const text = await response.text();
  const metrics = await getMetricsFromIterator(text.split('\n')[Symbol.iterator]());
  const data = (name: string) => metrics[name]?.data ?? [];
  return {
    text,
    metrics,
    total: (name, labels = {}) =>
      (data(name) as PromData[]).filter(including(labels)).reduce((sum, sample) => sum + sample.value, 0),
    observations: (name, labels = {}) =>
      (data(name) as PromHistogramData[])
        .filter(including(labels))
        .reduce((sum, series) => sum + series.count, 0),
    labelValues: () =>
      Object.values(metrics).flatMap((metric) =>
        (metric.data as Array<{ labels: Record<string, string> }>).flatMap((sample) =>
          Object.values(sample.labels),
        ),
      ),
  };
}
